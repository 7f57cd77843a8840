import { CancellationScope, patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { GenerationFailure, GenerationInput } from './definitions';
import { DB_RETRY } from './failures';
import type { GenerationState } from './generation-state';

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
  const canceled = root.consideredCancelled && state.failure === undefined;
  await db.refundCredits(
    canceled ? { generationId: input.generationId, status: 'canceled' } : { generationId: input.generationId, status: 'failed', ...(state.failure ?? LOST_ADMISSION) },
  );
  state.settledNow();
}

/**
 * Asks the provider to stop the job this run may have left running, and forgets it. False when a
 * job may still be running: its cancel failed (best effort: the provider keeps a job we no longer
 * wait for).
 */
export async function stopProviderJob(input: GenerationInput, state: GenerationState): Promise<boolean> {
  let stopped = true;
  const { providerJobId, providerJobRoute, recordedJob } = state;
  if (providerJobId) stopped = await cancelAtProvider(input, { providerJobId, route: providerJobRoute });
  // A sync step's queued job is stopped from the row since `sync-provider-jobs`; before, it was left running.
  else if (recordedJob && (!recordedJob.sync || patched('sync-provider-jobs'))) stopped = await cancelAtProvider(input, { recordedOn: recordedJob.route });
  state.jobsForgotten();
  return stopped;
}

/**
 * Best effort: the refund does not wait on a provider that will not answer. A job is known by its id
 * (two-activity workflows) or as whatever `runProviderJob` recorded on the row for a route. True
 * when nothing is left running there: no job, one the provider stopped, or one that had ended.
 */
async function cancelAtProvider(input: GenerationInput, job: { providerJobId: string; route: number | undefined } | { recordedOn: number }): Promise<boolean> {
  const remote = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 3 } });
  try {
    if ('recordedOn' in job) await remote.cancelRecordedProviderJob(input, job.recordedOn);
    else await (job.route === undefined ? remote.cancelProviderJob(input, job.providerJobId) : remote.cancelProviderJob(input, job.providerJobId, job.route));
    return true;
  } catch {
    // The provider keeps running a job we no longer wait for; nothing more to do here.
    return false;
  }
}
