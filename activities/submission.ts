import type { ProviderAdapter, ProviderContext, ProviderJob, SubmitResult } from './providers/types';

/**
 * Submits a job, answering the activity's cancellation at once if it comes first. A queue
 * provider's submission is not aborted by a cancel (fal, Replicate: the job may already be queued,
 * and only its id can stop it), so when its answer comes after the step was given up, the job it
 * names is cancelled here: nobody else will ever know it. The local activity of a sync job is not
 * held up meanwhile, and neither is its workflow.
 */
export async function submitUnlessCancelled(adapter: ProviderAdapter, job: ProviderJob, ctx: ProviderContext): Promise<SubmitResult> {
  ctx.signal.throwIfAborted();
  const submission = adapter.submit(job, ctx);
  return new Promise<SubmitResult>((resolve, reject) => {
    const giveUp = () => {
      reject(ctx.signal.reason);
      void submission.then((late) => (late.state === 'pending' ? adapter.cancel(job, late.providerJobId) : undefined)).catch(() => undefined);
    };
    ctx.signal.addEventListener('abort', giveUp, { once: true });
    submission.then(resolve, reject).finally(() => ctx.signal.removeEventListener('abort', giveUp));
  });
}
