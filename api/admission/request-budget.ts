import { INPUT_FETCH_TIMEOUT_MS } from './fetch-input';

// How long one credit-consuming request can take, part by part. An Idempotency-Key's claim is
// locked for that long (api/middleware/idempotency.ts): a shorter lock would let a retry take over
// a request that is still running, a longer one only delays the retry of a request that died.

/** The most input URLs one request fetches, one after another: a lipsync avatar's video and audio. */
export const MAX_INPUT_FETCHES = 2;
/**
 * Everything without a timeout of its own: database statements, storage writes, probing inputs,
 * starting the workflow, the Temporal health probe and the admission claim when the API gives up.
 */
export const UNTIMED_WORK_MS = 30_000;

export interface RequestTimeouts {
  /** SYNC_TIMEOUT_MS: how long a sync request waits for its job. */
  syncTimeoutMs: number;
  /** ADMISSION_TIMEOUT_MS: how long a request waits for a worker to admit its job (api/admission/await-admission.ts). */
  admissionTimeoutMs: number;
}

/**
 * The longest a request can take: its input fetches, the wait for admission and the sync wait,
 * added up rather than overlapped (today the two waits run side by side), so the sum stays an upper
 * bound however the waits are arranged.
 */
export function longestRequestMs(timeouts: RequestTimeouts): number {
  return MAX_INPUT_FETCHES * INPUT_FETCH_TIMEOUT_MS + timeouts.admissionTimeoutMs + timeouts.syncTimeoutMs + UNTIMED_WORK_MS;
}
