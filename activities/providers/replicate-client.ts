import Replicate from 'replicate';
import { answerTooLargeFailure, cappedFetch } from './capped-answers';
import { badOutput, failureFromNetwork, failureFromStatus } from './http-failure';
import type { ProviderCredentials } from './types';

// The official `replicate` SDK, set up the way the gateway needs it: one client per key, base URL
// (the platform's, or an organization's own) and answer cap, without the SDK's own retries, and its
// errors turned into the gateway's ProviderErrors.

export const REPLICATE = 'replicate';

/** Enough for the platform key and the BYOK keys a worker serves at once; the oldest goes first. */
const MAX_CLIENTS = 100;
const clients = new Map<string, Replicate>();

/**
 * A client whose answers are read no further than `answerCapBytes` (capped-answers.ts): a
 * prediction may hold small outputs inline, as data: URLs.
 */
export function replicateClient(credentials: ProviderCredentials, answerCapBytes: number): Replicate {
  const cacheKey = `${credentials.baseUrl}\n${credentials.apiKey}\n${answerCapBytes}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new Replicate({ auth: credentials.apiKey, baseUrl: credentials.baseUrl, fetch: answerEachRequestOnce(cappedFetch(answerCapBytes)) });
    if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
    clients.set(cacheKey, client);
  }
  return client;
}

/**
 * The SDK repeats a request by itself (a 429 up to five times, a GET also on 5xx and network
 * errors) and has no switch to turn that off. Retrying is Temporal's job, after the provider's
 * Retry-After, and falling back is the workflow's; so this fetch answers a repeat of a request
 * with the first answer instead of sending it again. The SDK passes the same `init` object to
 * every repeat of one request, which is what identifies a repeat.
 */
function answerEachRequestOnce(send: (input: Request | string, init?: RequestInit) => Promise<Response>): (input: Request | string, init?: RequestInit) => Promise<Response> {
  const answers = new WeakMap<RequestInit, Promise<Response>>();
  return (input, init) => {
    if (!init) return send(input);
    const first = answers.get(init);
    // The SDK leaves the body of an answer it repeats unread, so it can still be cloned.
    if (first) return first.then((response) => response.clone());
    const answer = send(input, init);
    answers.set(init, answer);
    return answer;
  };
}

/** What a failed SDK call means for the gateway: its HTTP status, a network failure, or a bad answer. */
export function replicateFailure(err: unknown, cancelled: AbortSignal): unknown {
  if (cancelled.aborted) return err;
  const tooLarge = answerTooLargeFailure(REPLICATE, err);
  if (tooLarge) return tooLarge;
  const response = answerOf(err);
  if (response) return failureFromStatus(REPLICATE, response.status, problemDetail((err as Error).message), response.headers.get('retry-after'));
  if (err instanceof SyntaxError) return badOutput(REPLICATE, 'its answer is not JSON');
  return failureFromNetwork(REPLICATE, err, cancelled);
}

/** The HTTP answer behind an SDK error (its `ApiError`), if the error is one. */
export function answerOf(err: unknown): Response | undefined {
  const response = (err as { response?: unknown } | undefined)?.response;
  return err instanceof Error && err.name === 'ApiError' && response instanceof Response ? response : undefined;
}

/**
 * Replicate answers errors with a problem document (`{"title", "detail", "status"}`); the SDK has
 * already read the body and put it at the end of its message, so it is taken from there.
 */
function problemDetail(message: string): string {
  const start = message.indexOf('{');
  const end = message.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      const problem = JSON.parse(message.slice(start, end + 1)) as { detail?: unknown; title?: unknown };
      const said = [problem.title, problem.detail].filter((part) => typeof part === 'string' && part).join(': ');
      if (said) return said;
    } catch {
      // Not a problem document: fall back to the SDK's message.
    }
  }
  return message.replace(/^Request to \S+ failed with status /, '');
}
