import { ApplicationFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import type { GenerationFailure } from './definitions';

// Retry policies and failure descriptions shared by the workflows.

/**
 * Database steps: a passing fault (Postgres restarting) is retried for about ten minutes; an error
 * no retry can fix (activities/permanent-failures.ts) fails at once, and the workflow refunds.
 */
export const DB_RETRY = {
  initialInterval: '200ms',
  maximumInterval: '10s',
  maximumAttempts: 60,
  nonRetryableErrorTypes: ['PermanentFailure', 'RangeError', 'TypeError', 'SyntaxError'],
};

/** Transient provider errors (ProviderTransientError) are retried; a provider's verdict is not. */
export const PROVIDER_RETRY = {
  initialInterval: '1s',
  maximumInterval: '30s',
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['ProviderError', 'PermanentFailure', 'RangeError', 'TypeError', 'SyntaxError'],
};

/** The type of a provider failure a retry may cure (activities/generations/provider-failures.ts). */
const PROVIDER_TRANSIENT_ERROR_TYPE = 'ProviderTransientError';

/**
 * Whether another route may succeed where this one failed: its retryable errors were spent
 * (rate limits, 5xx, timeouts, an unreachable provider), or the step itself timed out. A provider's
 * verdict (a refused request, content policy, bad credentials) is not retried elsewhere.
 */
export function mayFallBack(err: unknown): boolean {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof TimeoutFailure) return true;
    if (cause instanceof ApplicationFailure) return cause.type === PROVIDER_TRANSIENT_ERROR_TYPE;
  }
  return false;
}

/** What the generation records about why it failed. */
export function describeFailure(err: unknown, providerBudgetMs: number): GenerationFailure {
  // Not the workflow's cancel (the caller checked): the provider phase ran out of its budget.
  if (isCancellation(err)) {
    return {
      errorCode: 'provider_timeout',
      errorMessage: `The provider did not finish within ${Math.round(providerBudgetMs / 60_000)} minutes; the job was stopped and its credits refunded.`,
      errorSource: 'provider',
      retryable: true,
    };
  }
  // The provider's ApplicationFailure sits somewhere down the cause chain (ActivityFailure wraps it).
  let cause: unknown = err;
  while (cause instanceof Error && !(cause instanceof ApplicationFailure)) cause = cause.cause;
  const failure = cause instanceof ApplicationFailure ? cause : undefined;
  const details = failure?.details?.[0] as { code?: string; source?: 'provider' | 'gateway'; retryable?: boolean } | undefined;
  // Without a provider's code it was ours: a step that kept failing (storage, a bug) or timed out.
  const timedOut = hasTimeout(err);
  return {
    errorCode: details?.code ?? (timedOut ? 'provider_timeout' : 'internal_error'),
    errorMessage: failure?.message ?? (timedOut ? 'The provider did not answer in time.' : 'The generation failed on our side; its credits were refunded. Try again.'),
    errorSource: details?.source ?? (timedOut ? 'provider' : 'gateway'),
    retryable: details?.retryable ?? true,
  };
}

function hasTimeout(err: unknown): boolean {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) if (cause instanceof TimeoutFailure) return true;
  return false;
}
