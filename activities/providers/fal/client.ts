import { createFalClient, type QueueClient } from '@fal-ai/client';
import type { ProviderCredentials } from '../types';

// fal's official SDK speaks the queue protocol: it builds the URLs (status, result and cancel go to
// the app's first two path segments), sends the `Authorization: Key` header and the JSON bodies.
// Two things are bent, without changing a byte of what it sends:
// - where it sends them: the SDK always builds https://queue.fal.run/... URLs, so a request
//   middleware moves them onto the configured base URL (FAL_QUEUE_URL: a proxy, a gateway, a fake);
// - that it never retries: for queue calls the SDK retries 429, 5xx and connection errors 3 to 5
//   times with its own backoff, whatever the client's `retry` option says. Retries and Retry-After
//   are Temporal's job and fallback the workflow's, so the transport below reads each answer whole
//   and reports any failure as an error the SDK does not take for a retryable one.

/** The origin the SDK builds every queue URL on. */
const SDK_QUEUE_ORIGIN = 'https://queue.fal.run';
/** Answers that may not carry a body (the Response constructor refuses one for them). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** fal answered with a non-2xx status. `detail` is its message, flattened to one line. */
export class FalHttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** fal's machine-readable category (`content_policy_violation`, `request_timeout`, ...), if any. */
    readonly errorType: string | undefined,
    readonly retryAfter: string | null,
  ) {
    super(`fal answered HTTP ${status}${detail ? `: ${detail}` : ''}`);
    this.name = 'FalHttpFailure';
  }
}

/**
 * No answer: connection refused or reset, timeout, cancellation. The original error is kept in
 * `failure`, not `cause`: the SDK walks `cause` for connection error codes and would retry.
 */
export class FalTransportFailure extends Error {
  constructor(readonly failure: unknown) {
    super('fal could not be reached');
    this.name = 'FalTransportFailure';
  }
}

/** Clients by key and base URL: a poll every second per job should not build a client each time. */
const queues = new Map<string, QueueClient>();
/** Bounds the map: organizations' own keys come and go. */
const MAX_CACHED_QUEUES = 1_000;

/** The SDK's queue client for one set of credentials (the platform's key, or an organization's). */
export function falQueue(credentials: ProviderCredentials): QueueClient {
  const cacheKey = `${credentials.baseUrl}\n${credentials.apiKey}`;
  let queue = queues.get(cacheKey);
  if (!queue) {
    if (queues.size >= MAX_CACHED_QUEUES) queues.clear();
    queue = newFalQueue(credentials);
    queues.set(cacheKey, queue);
  }
  return queue;
}

function newFalQueue(credentials: ProviderCredentials): QueueClient {
  return createFalClient({
    credentials: credentials.apiKey,
    requestMiddleware: async (request) => ({ ...request, url: onBaseUrl(request.url, credentials.baseUrl) }),
    fetch: answerOnce,
    retry: { maxRetries: 0 },
  }).queue;
}

function onBaseUrl(url: string, baseUrl: string): string {
  return url.startsWith(`${SDK_QUEUE_ORIGIN}/`) ? `${baseUrl}${url.slice(SDK_QUEUE_ORIGIN.length)}` : url;
}

/**
 * One request, its answer read whole (queue answers are small JSON documents; output files are
 * fetched later by the ingest step, not here), so that no network failure can reach the SDK's
 * response handler and its retry loop.
 */
const answerOnce: typeof fetch = async (input, init) => {
  let response: Response;
  let text: string;
  try {
    response = await fetch(input, init);
    text = await response.text();
  } catch (err) {
    throw new FalTransportFailure(err);
  }
  if (!response.ok) {
    const body = parseJson(text);
    throw new FalHttpFailure(response.status, detailOf(body, text), errorTypeOf(body, response.headers), response.headers.get('retry-after'));
  }
  const body = NULL_BODY_STATUSES.has(response.status) ? null : text;
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * fal's two error shapes, as one line: request errors `{detail: "...", error_type}`, and model
 * errors `{detail: [{loc, msg, type}]}` (a content policy refusal is `type: content_policy_violation`).
 */
function detailOf(body: unknown, text: string): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item: { type?: unknown; msg?: unknown }) => [item?.type, item?.msg].filter((part) => typeof part === 'string').join(': '))
      .filter(Boolean)
      .join('; ');
  }
  const message = (body as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string') return message;
  return body === undefined ? text.trim().slice(0, 300) : '';
}

function errorTypeOf(body: unknown, headers: Headers): string | undefined {
  const fromBody = (body as { error_type?: unknown } | undefined)?.error_type;
  if (typeof fromBody === 'string') return fromBody;
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  const firstType = Array.isArray(detail) ? (detail[0] as { type?: unknown } | undefined)?.type : undefined;
  return headers.get('x-fal-error-type') ?? (typeof firstType === 'string' ? firstType : undefined);
}
