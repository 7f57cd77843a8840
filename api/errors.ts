// One error type for every user-facing failure; status and type come from one table (decisions §2).

const CODES = {
  validation_failed: [400, 'invalid_request_error'],
  unknown_model: [400, 'invalid_request_error'],
  modality_mismatch: [400, 'invalid_request_error'],
  capability_not_supported: [400, 'invalid_request_error'],
  missing_authorization: [401, 'authentication_error'],
  invalid_authorization: [401, 'authentication_error'],
  invalid_api_key: [401, 'authentication_error'],
  insufficient_credits: [402, 'billing_error'],
  plan_upgrade_required: [402, 'billing_error'],
  budget_exceeded: [402, 'billing_error'],
  // A request whose reservation would exceed the body's max_credits (docs/api.md "Price ceiling").
  max_cost_exceeded: [402, 'billing_error'],
  ip_not_allowed: [403, 'permission_error'],
  insufficient_role: [403, 'permission_error'],
  organization_paused: [403, 'permission_error'],
  // A signed file URL whose signature is wrong or expired, or a PUT that breaks what it signed.
  invalid_signature: [403, 'permission_error'],
  resource_not_found: [404, 'invalid_request_error'],
  generation_not_cancelable: [409, 'invalid_request_error'],
  // DELETE /v1/generations/{id}/outputs of a job still queued or running (it could store outputs after).
  generation_not_finished: [409, 'invalid_request_error'],
  // Cancel of a comparison that already has its verdict (the comparison twin of the code above).
  comparison_not_cancelable: [409, 'invalid_request_error'],
  // Replay of a webhook delivery still in progress, or of one whose webhook was deleted.
  delivery_not_replayable: [409, 'invalid_request_error'],
  // A bulk recovery of a disabled webhook: its deliveries would end at once; enable it first.
  webhook_disabled: [409, 'invalid_request_error'],
  // POST /v1/webhooks when the organization has MAX_WEBHOOKS_PER_ENVIRONMENT live ones in the environment.
  webhook_limit_reached: [409, 'invalid_request_error'],
  idempotency_in_progress: [409, 'invalid_request_error'],
  // POST /v1/users with the email of an active user of the organization.
  resource_already_exists: [409, 'invalid_request_error'],
  // Demoting or deactivating the organization's last active owner (decisions §3: the last owner stays).
  last_owner: [409, 'invalid_request_error'],
  // PATCH of a deactivated user: deactivation is final; add the person again as a new user.
  user_deactivated: [409, 'invalid_request_error'],
  // A file URL of an output past its `expires_at`, or whose files were deleted (DELETE .../outputs).
  output_expired: [410, 'invalid_request_error'],
  payload_too_large: [413, 'invalid_request_error'],
  unsupported_media_type: [415, 'invalid_request_error'],
  idempotency_key_reused: [422, 'invalid_request_error'],
  rate_limited: [429, 'rate_limit_error'],
  internal_error: [500, 'api_error'],
  provider_unavailable: [503, 'api_error'],
  // Postgres or Temporal unreachable (decisions §2): always with Retry-After, never a 500 or a hang.
  service_unavailable: [503, 'api_error'],
} as const;

export type ErrorCode = keyof typeof CODES;

/** Every code, in the table's order. */
export const ERROR_CODES = Object.keys(CODES) as ErrorCode[];

/** The HTTP status and `type` of a code: the one table the API answers by and the OpenAPI document prints. */
export function errorClassOf(code: ErrorCode): { status: number; type: string } {
  const [status, type] = CODES[code];
  return { status, type };
}

export interface ErrorDetail {
  param: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param?: string;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: { param?: string; details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    [this.status, this.type] = CODES[code];
    this.param = opts.param;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  toBody(requestId: string) {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        ...(this.param !== undefined && { param: this.param }),
        ...(this.details !== undefined && { details: this.details }),
        request_id: requestId,
      },
    };
  }
}

export const notFound = (what: string, id: string) => new ApiError('resource_not_found', `No such ${what}: '${id}'.`, { param: 'id' });
