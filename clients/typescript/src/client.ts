import createFetchClient from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { accountResources } from './resources/account.js';
import { comparisonsResource } from './resources/comparisons.js';
import { generationsResource } from './resources/generations.js';
import { modalityResources } from './resources/modalities.js';
import { retryingFetch } from './retrying-fetch.js';

// createClient: the generated openapi-fetch client over the retrying transport, with the
// hand-written resources on top. `client.api` is the generated client itself, for any operation.

export interface ClientOptions {
  /** An API key (`sk_live_...` or `sk_test_...`). */
  apiKey: string;
  /** The service's base URL, e.g. http://localhost:3000 (no /v1). */
  baseUrl: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** Retries of a 429, a 503 or a network failure (default 2). */
  maxRetries?: number;
  /** Each attempt's timeout (default 60 s). */
  timeoutMs?: number;
}

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_TIMEOUT_MS = 60_000;

export function createClient(options: ClientOptions) {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch({
      // Called as `fetch(...)`, never as a method of an options object: a browser's fetch throws
      // "Illegal invocation" when its `this` is anything but the window.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    }),
  });
  return {
    ...modalityResources(api),
    generations: generationsResource(api),
    comparisons: comparisonsResource(api),
    ...accountResources(api),
    api,
  };
}

export type GenerationServiceClient = ReturnType<typeof createClient>;
