// Polling: the heartbeating wait on a job the provider queued, until it is done. How often a job is
// asked about is a trade between seeing a short job finish at once and not hammering a provider
// with a long one; a provider's callback (activities/poll-hints.ts) cuts any wait short.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PollHints, PollHintWatch } from '../poll-hints';
import type { ProviderAdapter, ProviderContext, ProviderJob, ProviderResult } from '../providers/types';

/** Longest wait between two polls of a provider job, whatever the provider suggests. */
const MAX_POLL_INTERVAL_MS = 5_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** A job polled this long waits at least this fraction of its age before the next poll. */
const POLL_BACKOFF_FRACTION = 1 / 4;

/**
 * The provider's hint (or a second), stretched as the job ages, up to MAX_POLL_INTERVAL_MS: a
 * minute-long video is asked about every few seconds, not every second, while a job that is done
 * in two seconds is still seen at once. A provider's callback wakes the poll sooner
 * (activities/poll-hints.ts); the cap stays short all the same, for a provider that cannot reach
 * PUBLIC_BASE_URL or a callback that is lost.
 */
export function nextPollInMs(hintMs: number | undefined, ageMs: number): number {
  const hinted = Math.max(10, hintMs ?? DEFAULT_POLL_INTERVAL_MS);
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(hinted, Math.round(ageMs * POLL_BACKOFF_FRACTION)));
}

/**
 * Polls a queued job until it is done. A job just submitted is first asked about after the wait its
 * provider suggested with the submission (asked at once, it is still queued); a job resumed from
 * the row is asked at once, as it may have finished long ago. A callback cuts any wait short.
 */
export type PollUntilDone = (
  adapter: ProviderAdapter,
  job: ProviderJob,
  queued: { providerJobId: string; pollAfterMs?: number },
  ctx: ProviderContext,
  watch?: PollHintWatch,
) => Promise<ProviderResult>;

export function createPoller(deps: {
  /** The callbacks' hints, which cut a poll's wait short; without them polls keep their schedule. */
  pollHints?: PollHints;
}): PollUntilDone {
  return async function pollUntilDone(adapter, job, queued, ctx, watch) {
    const startedAt = Date.now();
    const hints = watch ?? deps.pollHints?.watch(job.generationId);
    const wait = (ms: number) => (hints ? hints.sleep(ms, ctx.signal) : sleep(ms, undefined, { signal: ctx.signal }));
    try {
      if (queued.pollAfterMs !== undefined) await wait(nextPollInMs(queued.pollAfterMs, 0));
      for (;;) {
        const status = await adapter.poll(job, queued.providerJobId, ctx);
        if (status.state === 'done') return status.result;
        await wait(nextPollInMs(status.pollAfterMs, Date.now() - startedAt));
      }
    } finally {
      if (!watch) hints?.close();
    }
  };
}
