import type { Client } from 'openapi-fetch';
import { apiErrorFrom } from './errors.js';
import type { paths } from './generated/openapi.js';

// What every resource shares: the generated openapi-fetch client, the per-call options, and the
// step that turns an answer into its data or throws the typed error.

export type Api = Client<paths>;

export interface RequestOptions {
  /** The Idempotency-Key of a POST (default: a fresh UUID, kept across retries). */
  idempotencyKey?: string;
}

export function idempotencyHeaders(options: RequestOptions | undefined): Record<string, string> {
  return options?.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {};
}

/** The data of a 2xx answer; any other answer throws its ApiError subclass. */
export async function unwrap<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok || error !== undefined) throw apiErrorFrom(response, error);
  return data as T;
}
