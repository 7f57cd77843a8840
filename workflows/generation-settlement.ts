import { type CancellationScope, deprecatePatch, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { GenerationFailure, GenerationInput } from './definitions';
import { DB_RETRY } from './failures';
import { DEADLINE_EXCEEDED } from './generation-deadline';
import type { GenerationState } from './generation-state';
import { upsertStatus } from './search-attribute-upserts';

// How a generation that did not reach capture is settled: its provider job stopped, its
// reservation refunded (the refund emits the event in the same transaction). The workflow
// (generation.ts) runs this in a non-cancellable scope, in the one `finally` every run passes.

/** A reservation this run never saw the verdict of (see settleLeftovers). */
const LOST_ADMISSION: GenerationFailure = {
  errorCode: 'internal_error',
  errorMessage: 'The generation was interrupted before it could start; its credits were refunded.',
  errorSource: 'gateway',
  retryable: true,
};

const db = proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', retry: DB_RETRY });

/**
 * Refunds a reservation that did not reach capture, and stops its provider job. Without a known
 * verdict it refunds by generation id all the same: a worker that died after committing the
 * reservation, replayed with a cancel ahead of the update, has a reservation this run never saw.
 */
export async function settleLeftovers(input: GenerationInput, state: GenerationState, root: CancellationScope): Promise<void> {
  state.closingStarted();
  if (state.settled) return;
  const verdict = await state.admission?.catch(() => undefined);
  if (verdict && !verdict.admitted) return;
  await stopProviderJob(input, state);
  const canceled = (root.consideredCancelled || state.deadlineExceeded) && state.failure === undefined;
  // A `Cancel-After` deadline's cancel says so (generation-deadline.ts); a caller's cancel has no code.
  const cancelReason = state.deadlineExceeded ? DEADLINE_EXCEEDED : {};
  await db.refundCredits(
    canceled
      ? { generationId: input.generationId, status: 'canceled', ...cancelReason }
      : { generationId: input.generationId, status: 'failed', ...(state.failure ?? LOST_ADMISSION) },
  );
  state.settledNow();
  upsertStatus(canceled ? 'canceled' : 'failed');
}

/**
 * Asks the provider to stop the job this run may have left running, and forgets it. False when a
 * job may still be running: its cancel failed (best effort: the provider keeps a job we no longer
 * wait for).
 */
export async function stopProviderJob(input: GenerationInput, state: GenerationState): Promise<boolean> {
  let stopped = true;
  const { recordedJob } = state;
  if (recordedJob) {
    // A sync step's queued job is stopped from the row since `sync-provider-jobs` (docs/testing.md,
    // the patch ledger); the marker stays where the patch recorded it.
    if (recordedJob.sync) deprecatePatch('sync-provider-jobs');
    stopped = await cancelAtProvider(input, recordedJob.route);
  }
  state.jobEnded();
  return stopped;
}

/**
 * Best effort: the refund does not wait on a provider that will not answer. The job is whatever
 * `runProviderJob` or `runProvider` recorded on the row for the route. True when nothing is left
 * running there: no job, one the provider stopped, or one that had ended.
 */
async function cancelAtProvider(input: GenerationInput, route: number): Promise<boolean> {
  const remote = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 3 } });
  try {
    await remote.cancelRecordedProviderJob(input, route);
    return true;
  } catch {
    // The provider keeps running a job we no longer wait for; nothing more to do here.
    return false;
  }
}
