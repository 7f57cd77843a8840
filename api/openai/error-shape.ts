import { errorClassOf, type ErrorCode } from '../errors';

// The OpenAI-compatible routes (/v1/openai/*) answer failures in OpenAI's error shape,
// `{"error": {"message", "type", "param", "code"}}`, with the statuses OpenAI uses, so that the
// official SDKs raise their own typed errors (NotFoundError, AuthenticationError, RateLimitError…).
// One table, read by the middleware that renders these errors and by the OpenAPI document.

/**
 * Failures only these routes have: OpenAI's chat.completion has no `failed` status, no 202 and no
 * `canceled`, so a chat that did not succeed within the request is answered as an error naming its
 * generation (whose reservation the workflow settles as for POST /v1/chat).
 */
const OPENAI_ONLY = {
  // The provider failed; the reservation is refunded.
  generation_failed: [502, 'server_error'],
  // Still running when the sync window closed: it goes on and is billed; read it with GET /v1/generations/{id}.
  generation_still_running: [504, 'server_error'],
  // Cancelled (POST /v1/generations/{id}/cancel) while the request waited; refunded.
  generation_canceled: [409, 'invalid_request_error'],
} as const;

export type OpenAiOnlyCode = keyof typeof OPENAI_ONLY;
export type OpenAiErrorCode = ErrorCode | OpenAiOnlyCode;

export const OPENAI_ONLY_CODES = Object.keys(OPENAI_ONLY) as OpenAiOnlyCode[];

/** OpenAI answers 404 for a model that does not exist, is not a chat model, or is not open to the caller. */
const MODEL_NOT_AVAILABLE = new Set<OpenAiErrorCode>(['unknown_model', 'modality_mismatch', 'plan_upgrade_required']);

/**
 * Our status and type, moved to OpenAI's where they differ: a model that does not exist, is not a
 * chat model or needs another plan is 404 (as OpenAI answers all three); running out of credits or budget is OpenAI's quota
 * answer, 429 `insufficient_quota` (402 has no typed error in the SDKs); a server fault is `server_error`.
 * `code` stays our documented code.
 */
export function openAiErrorClassOf(code: OpenAiErrorCode): { status: number; type: string } {
  if (code in OPENAI_ONLY) {
    const [status, type] = OPENAI_ONLY[code as OpenAiOnlyCode];
    return { status, type };
  }
  const ours = errorClassOf(code as ErrorCode);
  if (MODEL_NOT_AVAILABLE.has(code)) return { status: 404, type: 'invalid_request_error' };
  if (ours.status === 402) return { status: 429, type: 'insufficient_quota' };
  if (ours.type === 'api_error') return { status: ours.status, type: 'server_error' };
  return ours;
}

/**
 * Whether the SDKs must not retry this answer on their own (`x-should-retry: false`): they retry every
 * 409, 429 and 5xx, and a retry of these would only fail again (quota) or start a second generation.
 */
export function openAiRetryForbidden(code: OpenAiErrorCode): boolean {
  return code in OPENAI_ONLY || openAiErrorClassOf(code).type === 'insufficient_quota';
}

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

export function openAiErrorBody(code: OpenAiErrorCode, message: string, param?: string): OpenAiErrorBody {
  return { error: { message, type: openAiErrorClassOf(code).type, param: param ?? null, code } };
}

/** A failure of an OpenAI-compatible route that has no ApiError code (see OPENAI_ONLY). */
export class OpenAiFailure extends Error {
  constructor(
    readonly code: OpenAiOnlyCode,
    message: string,
  ) {
    super(message);
    this.name = 'OpenAiFailure';
  }
}
