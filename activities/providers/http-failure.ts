import { ProviderError } from './types';

// How every real adapter turns a provider's HTTP answer or a network failure into a ProviderError,
// so that all of them agree on what a retry can cure (the issue's rule): connection errors,
// timeouts, 5xx and 429 (after its Retry-After) are retryable; validation, content policy and
// auth failures are not. The codes are the generation's documented `error_code`s (docs/api.md).

export const PROVIDER_ERROR_CODES = {
  /** 401/403: the provider refused the key. */
  auth: 'provider_auth_failed',
  /** 400/404/422: the provider refused the request as made. */
  rejected: 'provider_rejected',
  /** The provider's safety system refused the prompt or the output. */
  contentPolicy: 'content_policy_violation',
  /** 429: retried after Retry-After, then the next route. */
  rateLimited: 'provider_rate_limited',
  /** 5xx, or a job the provider reports failed. */
  error: 'provider_error',
  /** No answer in time. */
  timeout: 'provider_timeout',
  /** Connection refused, reset, DNS. */
  unreachable: 'provider_unreachable',
  /** The provider said it succeeded but its answer has no usable output. */
  badOutput: 'provider_bad_output',
  /** An output above the modality's size cap. */
  tooLarge: 'output_too_large',
} as const;

const CONTENT_POLICY = /content[ _-]?policy|safety|moderat|nsfw|flagged/i;
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** Retry-After as delta-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** A non-2xx answer: `detail` is the provider's message (kept short), `retryAfter` its header. */
export function failureFromStatus(provider: string, status: number, detail: string, retryAfter?: string | null): ProviderError {
  const said = detail ? `: ${detail.slice(0, 300)}` : '';
  if (status === 401 || status === 403) {
    return new ProviderError(PROVIDER_ERROR_CODES.auth, `${provider} refused the credentials (HTTP ${status})${said}. Check the provider key.`);
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return new ProviderError(
      PROVIDER_ERROR_CODES.rateLimited,
      `${provider} is rate limiting requests (HTTP 429)${said}.`,
      true,
      retryAfterMs === undefined ? {} : { retryAfterMs },
    );
  }
  if (status === 408) return new ProviderError(PROVIDER_ERROR_CODES.timeout, `${provider} timed out the request (HTTP 408)${said}.`, true);
  if (status >= 500) return new ProviderError(PROVIDER_ERROR_CODES.error, `${provider} failed (HTTP ${status})${said}.`, true);
  if (CONTENT_POLICY.test(detail)) {
    return new ProviderError(PROVIDER_ERROR_CODES.contentPolicy, `${provider} refused the request under its content policy${said}.`);
  }
  return new ProviderError(PROVIDER_ERROR_CODES.rejected, `${provider} refused the request (HTTP ${status})${said}.`);
}

/**
 * A request that got no answer. `aborted` tells a cancelled activity (rethrown as is, so Temporal
 * sees the cancellation) from a request timeout.
 */
export function failureFromNetwork(provider: string, err: unknown, cancelled: AbortSignal): unknown {
  if (cancelled.aborted) return err;
  if (err instanceof ProviderError) return err;
  const name = (err as { name?: string })?.name ?? '';
  const message = (err as { message?: string })?.message ?? String(err);
  if (name === 'TimeoutError' || name === 'AbortError' || /timed? ?out/i.test(message)) {
    return new ProviderError(PROVIDER_ERROR_CODES.timeout, `${provider} did not answer in time.`, true);
  }
  return unreachable(provider, causeChain(err));
}

/** "fetch failed: connect ECONNREFUSED 10.0.3.7:8000": each message down the `cause` chain. */
function causeChain(err: unknown): string {
  const messages: string[] = [];
  for (let cause: unknown = err; cause !== undefined && cause !== null && messages.length < 5; cause = (cause as { cause?: unknown }).cause) {
    messages.push((cause as { message?: string }).message ?? String(cause));
    if (typeof cause !== 'object') break;
  }
  return messages.join(': ');
}

/**
 * A provider (or its output URL) that could not be reached. The client's message names the provider
 * only; the root cause (`connect ECONNREFUSED 10.0.3.7:8000`, a host name) goes to the logs, with
 * the generation id (activities/generations/provider-failures.ts), as `internalDetail`.
 */
export function unreachable(provider: string, rootCause: string, what = `The provider ${provider}`): ProviderError {
  return new ProviderError(PROVIDER_ERROR_CODES.unreachable, `${what} could not be reached; the generation was refunded. Try again later.`, true, {
    internalDetail: rootCause.slice(0, 500),
  });
}

/** A provider job that reports it failed: not retried on this route (the job ran and was paid for). */
export function jobFailed(provider: string, detail: string): ProviderError {
  if (CONTENT_POLICY.test(detail)) {
    return new ProviderError(PROVIDER_ERROR_CODES.contentPolicy, `${provider} refused the job under its content policy: ${detail.slice(0, 300)}`);
  }
  return new ProviderError(PROVIDER_ERROR_CODES.error, `${provider} reports the job failed${detail ? `: ${detail.slice(0, 300)}` : ''}.`);
}

/** A success answer without the output it promised. */
export function badOutput(provider: string, what: string): ProviderError {
  return new ProviderError(PROVIDER_ERROR_CODES.badOutput, `${provider} answered without a usable output: ${what}.`);
}

/** For requests no activity cancellation may abort: a queue provider's submission, a cancel. */
export const NOT_CANCELLED: AbortSignal = new AbortController().signal;

/** One signal that ends a request on cancellation or after the adapter's request timeout. */
export function requestSignal(cancelled: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([cancelled, AbortSignal.timeout(timeoutMs)]);
}
