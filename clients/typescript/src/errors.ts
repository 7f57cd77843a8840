import type { ErrorBody } from './types.js';

// Typed errors: every non-2xx answer becomes an ApiError subclass chosen by the error's `type`
// (the document's error shape: type, code, message, param, request_id) or, failing that, by the
// HTTP status, so callers can `catch (e) { if (e instanceof RateLimitError) ... }`.

export type ErrorType = ErrorBody['error']['type'];
export type ErrorCode = ErrorBody['error']['code'];

export interface ApiErrorFields {
  status: number;
  type: ErrorType | undefined;
  code: ErrorCode | undefined;
  message: string;
  param: string | undefined;
  requestId: string | undefined;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  retryAfter: number | undefined;
  body: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType | undefined;
  readonly code: ErrorCode | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  readonly body: unknown;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.name = new.target.name;
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter;
    this.body = fields.body;
  }
}

export class InvalidRequestError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class PermissionError extends ApiError {}
/** 402: the wallet, the plan or a budget does not allow the request (billing_error). */
export class BillingError extends ApiError {}
/** 402 insufficient_credits: top the wallet up. */
export class InsufficientCreditsError extends BillingError {}
export class NotFoundError extends ApiError {}
/** 409: an idempotency conflict, a state that does not allow the action, a duplicate. */
export class ConflictError extends ApiError {}
export class RateLimitError extends ApiError {}
/** 5xx: the service or a dependency failed; usually worth retrying later. */
export class ServerError extends ApiError {}
/** The request never got an answer (network failure or the client's own timeout). */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

function classFor(status: number, type: ErrorType | undefined, code: ErrorCode | undefined): typeof ApiError {
  if (code === 'insufficient_credits') return InsufficientCreditsError;
  if (type === 'billing_error' || status === 402) return BillingError;
  if (type === 'authentication_error' || status === 401) return AuthenticationError;
  if (type === 'permission_error' || status === 403) return PermissionError;
  if (type === 'rate_limit_error' || status === 429) return RateLimitError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status >= 500) return ServerError;
  return InvalidRequestError;
}

/** The typed error for a non-2xx response whose body (parsed JSON, or text) is `body`. */
export function apiErrorFrom(response: Response, body: unknown): ApiError {
  const detail = (body as Partial<ErrorBody> | undefined)?.error;
  const type = detail?.type;
  const code = detail?.code;
  const ErrorClass = classFor(response.status, type, code);
  return new ErrorClass({
    status: response.status,
    type,
    code,
    message: detail?.message ?? `HTTP ${response.status} ${response.statusText}`.trim(),
    param: detail?.param,
    requestId: detail?.request_id ?? response.headers.get('x-request-id') ?? undefined,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    body,
  });
}
