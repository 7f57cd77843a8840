import OpenAI from 'openai';
import { answerTooLargeFailure, cappedFetch } from './capped-answers';
import { badOutput, failureFromNetwork, failureFromStatus } from './http-failure';
import type { AdapterOptions, ProviderCredentials } from './types';

// What the OpenAI adapter (and the OpenAI-compatible one) needs around the official SDK: a client
// per key, base URL and answer cap, and the one translation of the SDK's errors into ProviderErrors.

/** Enough for the platform's key plus the organizations that bring their own. */
const CACHED_CLIENTS = 64;

/**
 * A client for the job's credentials. Retries are off (Temporal retries, the workflow falls back),
 * and nothing is read from the environment the SDK would otherwise consult (OPENAI_ORG_ID,
 * OPENAI_PROJECT_ID, OPENAI_ADMIN_KEY): an organization's own key must not travel with the
 * platform's organization header. A key-less server (Ollama, a local vLLM) gets no Authorization
 * header at all. No answer is read past `answerCapBytes` (capped-answers.ts): images come back
 * as base64 inside the JSON.
 */
export function createOpenAIClients(opts: AdapterOptions): (credentials: ProviderCredentials, answerCapBytes: number) => OpenAI {
  const clients = new Map<string, OpenAI>();
  return (credentials, answerCapBytes) => {
    const cacheKey = `${credentials.baseUrl}\n${credentials.apiKey}\n${answerCapBytes}`;
    const cached = clients.get(cacheKey);
    if (cached) return cached;
    const client = new OpenAI({
      // The SDK refuses to start without a key; the placeholder is never sent (the header is removed).
      apiKey: credentials.apiKey || 'no-key',
      baseURL: credentials.baseUrl,
      maxRetries: 0,
      timeout: opts.requestTimeoutMs,
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
      fetch: cappedFetch(answerCapBytes),
      ...(!credentials.apiKey && { defaultHeaders: { Authorization: null } }),
    });
    clients.set(cacheKey, client);
    if (clients.size > CACHED_CLIENTS) clients.delete(clients.keys().next().value!);
    return client;
  };
}

/**
 * The SDK's error as a ProviderError: an HTTP answer by its status (and Retry-After), our own
 * request timeout (the SDK calls an aborted signal a user abort) as a timeout, an unparseable
 * success body as bad output. A cancelled activity's abort is passed through unchanged.
 */
export function failureFromOpenAI(provider: string, err: unknown, cancelled: AbortSignal): unknown {
  if (cancelled.aborted) return err;
  const tooLarge = answerTooLargeFailure(provider, err);
  if (tooLarge) return tooLarge;
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    return failureFromStatus(provider, err.status, errorDetail(err), err.headers?.get('retry-after'));
  }
  if (err instanceof OpenAI.APIUserAbortError) {
    return failureFromNetwork(provider, new DOMException('The request timed out.', 'TimeoutError'), cancelled);
  }
  if (err instanceof SyntaxError) return badOutput(provider, 'its answer is not valid JSON');
  if (err instanceof OpenAI.APIConnectionError && !(err instanceof OpenAI.APIConnectionTimeoutError)) {
    return failureFromNetwork(provider, new Error(rootCause(err)), cancelled);
  }
  return failureFromNetwork(provider, err, cancelled);
}

/** `error.message` of OpenAI's `{error: {message, type, code}}` body, with its code when it has one. */
function errorDetail(err: InstanceType<typeof OpenAI.APIError>): string {
  const body = err.error as { message?: unknown; code?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : err.message;
  return typeof body?.code === 'string' && body.code ? `${message} (${body.code})` : message;
}

/** "connect ECONNREFUSED 127.0.0.1:9" rather than the SDK's bare "Connection error.". */
function rootCause(err: Error): string {
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return cause instanceof Error ? cause.message : err.message;
}
