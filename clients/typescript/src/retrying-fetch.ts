import { ConnectionError, parseRetryAfter } from './errors.js';

// The transport under every call: a fetch that gives each POST an Idempotency-Key (a UUID unless the
// caller set one), bounds each attempt with a timeout, and retries 429 and 503 answers (honouring
// Retry-After) and network failures of idempotent requests. The retried request is the same
// request, idempotency key included, so the service charges a retried creation once.

export interface RetryOptions {
  fetch: typeof fetch;
  maxRetries: number;
  timeoutMs: number;
}

const RETRIED_STATUSES = new Set([429, 503]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A Retry-After longer than this is not waited out: the caller gets the 429/503 and decides. */
const MAX_RETRY_AFTER_S = 60;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential backoff with full jitter for the attempt after `attempt` failures. */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt);
}

function withIdempotencyKey(request: Request): Request {
  if (request.method !== 'POST' || request.headers.has('Idempotency-Key')) return request;
  const headers = new Headers(request.headers);
  headers.set('Idempotency-Key', crypto.randomUUID());
  return new Request(request, { headers });
}

export function retryingFetch(options: RetryOptions): (input: Request) => Promise<Response> {
  return async (input) => {
    const request = withIdempotencyKey(input);
    // A POST carrying an idempotency key is safe to resend: the service answers the first result.
    const idempotent = IDEMPOTENT_METHODS.has(request.method) || request.headers.has('Idempotency-Key');
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        // The caller's own signal (openapi-fetch's `signal` option) still aborts, next to the timeout.
        response = await options.fetch(request.clone(), { signal: AbortSignal.any([request.signal, AbortSignal.timeout(options.timeoutMs)]) });
      } catch (err) {
        if (request.signal.aborted) throw err;
        if (!idempotent || attempt >= options.maxRetries) {
          throw new ConnectionError(`${request.method} ${new URL(request.url).pathname} got no answer: ${(err as Error).message}`, { cause: err });
        }
        await sleep(backoffMs(attempt));
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt >= options.maxRetries) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_S) return response;
      await response.body?.cancel();
      await sleep(retryAfter !== undefined ? retryAfter * 1000 : backoffMs(attempt));
    }
  };
}
