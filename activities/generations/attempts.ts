// Attempt recording: every provider call that ends is appended to the generation's `attempts`, its
// provenance (which provider and model were asked, how it ended, how long it took). A call the
// generation itself cancelled is left open here, for the settlement to end with the generation's
// outcome.
import { CancelledFailure, Context } from '@temporalio/activity';
import type { Repos } from '../../db/repos';
import type { ProviderAttempt } from '../../db/repos/generations';
import type { GenerationInput } from '../../workflows/definitions';
import { ProviderError, type ProviderJob } from '../providers/types';

interface RecordedOptions<T> {
  /** Whether a result ends the attempt (a queued job's does not). */
  ends?: (result: T) => boolean;
  /** A queued job's poll: a try the step's timeout stops leaves the job to the next try, which resumes it. */
  resumable?: boolean;
}

/**
 * Runs one provider call and adds it to the generation's `attempts` once it ends: succeeded, or
 * failed with its code. A cancelled call (the workflow moved on) is not ended here: the settlement
 * that follows ends the call it finds open on the row with the generation's outcome.
 */
export type Recorded = <T>(input: GenerationInput, job: ProviderJob, startedAt: number, fn: () => Promise<T>, opts?: RecordedOptions<T>) => Promise<T>;

export function createAttemptRecorder(repos: Pick<Repos, 'generations'>): Recorded {
  return async function recorded<T>(input: GenerationInput, job: ProviderJob, startedAt: number, fn: () => Promise<T>, opts: RecordedOptions<T> = {}): Promise<T> {
    const attempt = (outcome: ProviderAttempt['outcome'], errorCode?: string): ProviderAttempt => ({
      provider: job.route.provider,
      model: job.route.model,
      outcome,
      ...(errorCode && { error_code: errorCode }),
      duration_ms: Math.max(0, Date.now() - startedAt),
    });
    try {
      const result = await fn();
      if (opts.ends?.(result) ?? true) await repos.generations.recordAttempt(input.generationId, attempt('succeeded'));
      return result;
    } catch (err) {
      const { aborted, reason } = Context.current().cancellationSignal;
      if (!aborted) {
        await repos.generations.recordAttempt(input.generationId, attempt('failed', err instanceof ProviderError ? err.code : 'internal_error'));
      } else if (!opts.resumable && reason instanceof CancelledFailure && reason.message === 'TIMED_OUT') {
        // The step's own timeout ended this call (its next try makes another). Any other cancel is
        // the generation's: its settlement records the call with the generation's outcome.
        await repos.generations.recordAttempt(input.generationId, attempt('failed', 'provider_timeout'));
      }
      throw err;
    }
  };
}
