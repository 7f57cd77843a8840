// @generation-service/client: the public surface (see ../README.md).

export { createClient, type ClientOptions, type GenerationServiceClient } from './client.js';
export {
  ApiError,
  AuthenticationError,
  BillingError,
  ConflictError,
  ConnectionError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  type ErrorCode,
  type ErrorType,
} from './errors.js';
export type { RequestOptions } from './request.js';
export type { ChatCompletion, Comparison, Generation, WebhookEvent } from './types.js';
export { WaitTimeoutError, type WaitOptions } from './wait.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions } from './webhook-verification.js';
export { verifyStandardWebhook, type StandardWebhookHeaders } from './standard-webhook-verification.js';
export type { components, operations, paths } from './generated/openapi.js';
