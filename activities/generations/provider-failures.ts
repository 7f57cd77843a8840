// How a provider step's errors leave the activity. The workflow decides on a failure's type alone
// whether to retry the route, fall back to the next one or fail (workflows/failures.ts), and the
// caller reads its message and details; so every provider step wraps itself in asTemporalFailure,
// and this is the one place that turns a ProviderError, or a failure on our side, into that shape.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { TemporalFailure } from '@temporalio/common';
import { describeError } from '../../lib/logger';
import type { GenerationInput } from '../../workflows/definitions';
import { refusedPlatformKey } from '../providers/platform-key';
import { ProviderError } from '../providers/types';

export const PROVIDER_ERROR_TYPE = 'ProviderError';
/**
 * A provider failure a retry may cure (rate limited, 5xx, timeout), or another route may (a refused
 * platform key, sent non-retryable): not in nonRetryableErrorTypes, and the workflow falls back on it.
 */
const PROVIDER_TRANSIENT_ERROR_TYPE = 'ProviderTransientError';

/**
 * Provider errors become Temporal failures that say whether a retry may help (`retryable`: on this
 * route) and whether the next route may (`fallsBack`: the workflow falls back on the transient type
 * only, workflows/failures.ts). What only the logs may see is logged here, with the generation id:
 * the root cause of an unreachable provider, a platform key the provider refused.
 */
export async function asTemporalFailure<T>(fn: () => Promise<T>, step: { input: GenerationInput; routeIndex?: number | undefined }): Promise<T> {
  try {
    return await fn();
  } catch (caught) {
    const route = step.input.routes?.[step.routeIndex ?? 0];
    const refused = refusedPlatformKey(caught, route);
    const err = refused ?? caught;
    if (err instanceof ProviderError) {
      const fields = { generation_id: step.input.generationId, provider: route?.provider, provider_model: route?.model, error_code: err.code };
      if (refused) {
        Context.current().log.error(`platform credentials for ${route!.provider} were refused; the generation falls back to its next route, if any. Replace the key.`, {
          ...fields,
          provider_answer: refused.opts.internalDetail,
        });
      } else if (err.opts.internalDetail !== undefined) {
        Context.current().log.warn('a provider call failed', { ...fields, root_cause: err.opts.internalDetail });
      }
      const fallsBack = err.retryable || err.opts.fallsBack === true;
      throw ApplicationFailure.create({
        message: err.message,
        type: fallsBack ? PROVIDER_TRANSIENT_ERROR_TYPE : PROVIDER_ERROR_TYPE,
        nonRetryable: !err.retryable,
        // `retryable` is the caller's: a request another route could have served may succeed later.
        details: [{ code: err.code, source: err.opts.source ?? 'provider', retryable: fallsBack }],
        // A provider's Retry-After: the next try waits at least that long.
        ...(err.retryable && err.opts.retryAfterMs !== undefined && { nextRetryDelay: err.opts.retryAfterMs }),
      });
    }
    // Not a provider's answer: storage, the database, a bug. Its text (`connect ECONNREFUSED
    // 10.0.3.9:9000`, a stack's file names) is for the log; the generation's error_message, which
    // Temporal's failure message becomes, says only that it was ours. Its type is kept, and with it
    // the retry policy's verdict, and it is the cause (the workflow reads the outermost message);
    // cancellations and Temporal's own failures pass through.
    if (caught instanceof Error && !(caught instanceof TemporalFailure) && !Context.current().cancellationSignal.aborted) {
      Context.current().log.warn('a provider step failed on our side', { generation_id: step.input.generationId, ...describeError(caught) });
      throw ApplicationFailure.create({ message: OUR_FAILURE_MESSAGE, type: caught.name, cause: caught });
    }
    throw caught;
  }
}

/** What a caller is told of a provider step that failed on our side (the workflow's own wording). */
const OUR_FAILURE_MESSAGE = 'The generation failed on our side; its credits were refunded. Try again.';
