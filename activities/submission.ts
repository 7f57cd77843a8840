import { setTimeout as sleep } from 'node:timers/promises';
import { classifyDependencyError } from '../lib/dependency-errors';
import type { ProviderAdapter, ProviderContext, ProviderJob, SubmitResult } from './providers/types';

/**
 * Submits a job, answering the activity's cancellation at once if it comes first. A queue
 * provider's submission is not aborted by a cancel (fal, Replicate: the job may already be queued,
 * and only its id can stop it), so when its answer comes after the step was given up, the job it
 * names is cancelled here: nobody else will ever know it. The local activity of a sync job is not
 * held up meanwhile, and neither is its workflow. `onUncancelled` hears of such a job that refused
 * to be cancelled.
 */
export async function submitUnlessCancelled(
  adapter: ProviderAdapter,
  job: ProviderJob,
  ctx: ProviderContext,
  onUncancelled: (providerJobId: string, err: unknown) => void,
): Promise<SubmitResult> {
  ctx.signal.throwIfAborted();
  const submission = adapter.submit(job, ctx);
  return new Promise<SubmitResult>((resolve, reject) => {
    const giveUp = () => {
      reject(ctx.signal.reason);
      // A submission that failed started no job: there is nothing to cancel.
      void submission.then(
        (late) => (late.state === 'pending' ? adapter.cancel(job, late.providerJobId).catch((err) => onUncancelled(late.providerJobId, err)) : undefined),
        () => undefined,
      );
    };
    ctx.signal.addEventListener('abort', giveUp, { once: true });
    submission.then(resolve, reject).finally(() => ctx.signal.removeEventListener('abort', giveUp));
  });
}

/** How long recording a job the provider accepted waits out a database outage before cancelling it. */
export const RECORD_JOB_PATIENCE_MS = 60_000;
const FIRST_RECORD_RETRY_MS = 250;
const MAX_RECORD_RETRY_MS = 5_000;

/**
 * Records the job a provider just accepted, through a database outage. Until it is on the row its
 * id is known to this step alone, and fal and Replicate take no idempotency key: a step that failed
 * here would run again and start a second paid job while the first ran on, known to no one. So an
 * outage is waited out (retrying with backoff, for `patienceMs`, while the step is not cancelled),
 * and a job that still cannot be recorded is cancelled at the provider before the step fails; its
 * next try submits afresh. `onUncancelled` hears of a job that refused to be cancelled too.
 */
export async function recordSubmittedJob<T>(opts: {
  record: () => Promise<T>;
  cancel: () => Promise<void>;
  signal: AbortSignal;
  patienceMs?: number;
  onUncancelled: (err: unknown) => void;
}): Promise<T> {
  const deadline = Date.now() + (opts.patienceMs ?? RECORD_JOB_PATIENCE_MS);
  for (let delay = FIRST_RECORD_RETRY_MS; ; delay = Math.min(delay * 2, MAX_RECORD_RETRY_MS)) {
    try {
      return await opts.record();
    } catch (err) {
      const waitable = classifyDependencyError(err) === 'postgres' && !opts.signal.aborted && Date.now() + delay <= deadline;
      if (waitable && (await sleep(delay, true, { signal: opts.signal }).catch(() => false))) continue;
      await opts.cancel().catch(opts.onUncancelled);
      // A step given up while it waited ends as cancelled, as it would have anywhere else.
      throw opts.signal.aborted ? opts.signal.reason : err;
    }
  }
}
