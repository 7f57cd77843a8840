import { createClient, type GenerationServiceClient } from '../../clients/typescript/src/client.js';
import { ApiError, ConnectionError } from '../../clients/typescript/src/errors.js';
import type { components } from '../../clients/typescript/src/generated/openapi.js';
import { unwrap } from '../../clients/typescript/src/request.js';

// The dashboard's only way to the service: the TypeScript client (clients/typescript), on this
// page's own origin, with the signed-in key. So the dashboard can do nothing the key cannot.

export type Schemas = components['schemas'];
export type Identity = Schemas['CurrentApiKey'];
export type Api = GenerationServiceClient;

/** A client for `secret` on this origin. One retry of a 429/503: a person is waiting. */
export const createApi = (secret: string): Api => createClient({ apiKey: secret, baseUrl: location.origin, maxRetries: 1, timeoutMs: 60_000 });

/** Who the key is: GET /v1/api-keys/current. */
export const fetchIdentity = (api: Api): Promise<Identity> => unwrap<Identity>(api.api.GET('/v1/api-keys/current'));

/** What to show a person for a failure: the API's own message, and its code and request id to quote. */
export function describeFailure(err: unknown): { message: string; detail?: string } {
  if (err instanceof ApiError) {
    const parts = [err.code && `code ${err.code}`, err.requestId && `request ${err.requestId}`].filter(Boolean);
    return { message: err.message, detail: parts.length ? parts.join(' · ') : undefined };
  }
  if (err instanceof ConnectionError) return { message: `Could not reach the service: ${err.message}` };
  return { message: err instanceof Error ? err.message : String(err) };
}

export { ApiError };
