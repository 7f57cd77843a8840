import { errorClassOf, type ErrorCode } from '../errors';
import { openAiErrorClassOf, openAiRetryForbidden, type OpenAiErrorCode } from '../openai/error-shape';
import type { RouteSpec } from '../route-table';
import { errorBodySchema, openAiErrorBodySchema } from './shared-components';

// A route's error answers, one per status, each a component response named by the codes it can
// carry (`ValidationFailedOrResourceNotFound`...): the same set of codes is the same response
// whichever route gives it, so the document states it once and clients get one error type for it.
// Its body is a named schema too (`ValidationFailedOrResourceNotFoundError`): a generator names a
// class after a component schema, but makes a new one per operation and status of an inline body
// (openapi-python-client wrote 1,600 copies of the same few error classes).
// The OpenAI-compatible routes answer in OpenAI's shape and statuses (api/openai/error-shape.ts):
// their responses are components of their own (`OpenAi…`).

/** The component responses and body schemas the error answers are written into, shared by every operation. */
export interface ErrorComponents {
  responses: Map<string, object>;
  schemas: Map<string, object>;
}

type Shape = RouteSpec['errorShape'];
const statusOf = (code: OpenAiErrorCode, shape: Shape) => (shape === 'openai' ? openAiErrorClassOf(code) : errorClassOf(code as ErrorCode)).status;

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_m, _sep: string, letter: string) => letter.toUpperCase());

/** The status's codes as one component response and its body schema (written into `registry`), by reference. */
function errorResponse(status: number, codes: OpenAiErrorCode[], registry: ErrorComponents, shape: Shape): object {
  const name = (shape === 'openai' ? 'OpenAi' : '') + codes.map(pascal).join('Or');
  if (!registry.responses.has(name)) {
    // A 429 always says when to come back; a 503 says so when a retry can succeed (a dependency
    // outage, no worker in time), not when the server lacks a setting or a provider's credentials.
    const retry = status === 429 || status === 503;
    // An OpenAI-shaped 429 may also be the quota answer (no credits left), which a wait does not cure.
    const retryRequired = status === 429 && !codes.some(openAiRetryForbidden);
    registry.schemas.set(`${name}Error`, shape === 'openai' ? openAiErrorBodySchema(codes) : errorBodySchema(codes as ErrorCode[]));
    registry.responses.set(name, {
      description: `${status}: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
      headers: {
        'X-Request-Id': header('RequestId'),
        // The rate-limit headers ride on every answer after authentication; the document names
        // them where a client acts on them: successes and 429.
        ...(status === 429 && { 'RateLimit-Limit': header('RateLimitLimit'), 'RateLimit-Remaining': header('RateLimitRemaining'), 'RateLimit-Reset': header('RateLimitReset') }),
        ...(retry && { 'Retry-After': header(retryRequired ? 'RetryAfterAlways' : 'RetryAfter') }),
      },
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Error` } } },
    });
  }
  return { $ref: `#/components/responses/${name}` };
}

/** One response per status the codes fall in, except the statuses the route documents as successes of its own (health's 503). */
export function errorResponses(codes: OpenAiErrorCode[], documented: Set<string>, registry: ErrorComponents, shape: Shape): Record<string, object> {
  const byStatus = new Map<number, OpenAiErrorCode[]>();
  for (const code of codes) {
    const status = statusOf(code, shape);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, object> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (!documented.has(String(status))) out[String(status)] = errorResponse(status, list, registry, shape);
  }
  return out;
}
