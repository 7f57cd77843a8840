import { ApplicationFailure, isCancellation } from '@temporalio/workflow';
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

/** What the generation records about why it failed. */
export function describeFailure(err: unknown, providerBudgetMs: number): GenerationFailure {
  // Not the workflow's cancel (the caller checked): the provider phase ran out of its budget.
  if (isCancellation(err)) {
    return {
      errorCode: 'provider_timeout',
      errorMessage: `The provider did not finish within ${Math.round(providerBudgetMs / 60_000)} minutes; the job was stopped and its credits refunded.`,
    };
  }
  // The provider's ApplicationFailure sits somewhere down the cause chain (ActivityFailure wraps it).
  let cause: unknown = err;
  while (cause instanceof Error && !(cause instanceof ApplicationFailure)) cause = cause.cause;
  const failure = cause instanceof ApplicationFailure ? cause : undefined;
  const details = failure?.details?.[0] as { code?: string } | undefined;
  return {
    errorCode: details?.code ?? 'provider_error',
    errorMessage: failure?.message ?? 'The provider did not produce a result.',
  };
}
