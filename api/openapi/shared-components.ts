import { ERROR_CODES, errorClassOf, type ErrorCode } from '../errors';
import { OPENAI_ONLY_CODES, openAiErrorClassOf, type OpenAiErrorCode } from '../openai/error-shape';

// The parts of the document every operation shares: security schemes, headers, the
// Idempotency-Key parameter and the error object (decisions §2).

export const SECURITY_SCHEMES = {
  ApiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_live_… or sk_test_…',
    description: 'An API key of the organization: `Authorization: Bearer sk_live_…` (or `sk_test_…` for the test environment).',
  },
  AdminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token the service was started with (`ADMIN_TOKEN`); only the operator API under /admin/v1 takes it.',
  },
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

export const HEADERS = {
  RequestId: { description: 'The request’s id: quote it when asking about a request. Also in every error body.', schema: { type: 'string' } },
  RateLimitLimit: integerHeader('Requests this key may make per minute.'),
  RateLimitRemaining: integerHeader('Requests left in the current window.'),
  RateLimitReset: integerHeader('Seconds until the window is full again.'),
  RetryAfter: integerHeader('Seconds to wait before retrying, when a retry can succeed.'),
  RetryAfterAlways: { ...integerHeader('Seconds to wait before retrying.'), required: true },
  GatewayOverheadMs: integerHeader(
    'On a 200 that ran a job: the milliseconds the request spent in the gateway, its total time in the API minus the recorded duration of every provider call (its `attempts`). Absent from 202 answers and from replays.',
  ),
  IdempotentReplayed: {
    description: '`true` when this answer replays the first answer to the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

export const PARAMETERS = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key with the same body within 24 hours answers the first answer (never a second charge); with a different body it is refused with 422.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  },
  CancelAfter: {
    name: 'Cancel-After',
    in: 'header',
    required: false,
    description:
      "A deadline for the job, counted from the request: a whole number of seconds, minutes or hours (`30s`, `5m`, `1h`), at most the modality's provider budget (10m for sync modalities, 1h for async ones by default). " +
      'A job not finished by then ends `canceled` with `error_code: deadline_exceeded`, stopped at the provider if it had started, and its reservation refunded in full. ' +
      'A bad or too-long value is 400 `validation_failed` with `param: Cancel-After`, nothing reserved. Part of the request for `Idempotency-Key`: another value is 422.',
    schema: { type: 'string', pattern: '^[1-9][0-9]{0,6}(s|m|h)$' },
  },
};

export const ERROR_DETAIL_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['param', 'message'],
  properties: { param: { type: 'string' }, message: { type: 'string' } },
};

/** The error body every failure has (decisions §2); each response narrows `code` to its own. */
export const ERROR_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'code', 'message', 'request_id'],
      properties: {
        type: { type: 'string', enum: [...new Set(ERROR_CODES.map((code) => errorClassOf(code).type))] },
        code: { type: 'string', enum: [...ERROR_CODES] },
        message: { type: 'string', description: 'What went wrong and what to do, for a person.' },
        param: { type: 'string', description: 'The parameter at fault, when one is.' },
        details: { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' }, description: 'Every fault found, when there are several.' },
        request_id: { type: 'string' },
      },
    },
  },
};

/** The error body of one status of one route: `code` is one of the codes that route can answer with that status. */
export function errorBodySchema(codes: readonly ErrorCode[]): object {
  const types = [...new Set(codes.map((code) => errorClassOf(code).type))];
  return {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      { type: 'object', properties: { error: { type: 'object', properties: { type: { enum: types }, code: { enum: [...codes] } } } } },
    ],
  };
}

/** OpenAI's error body, which the OpenAI-compatible routes answer with (api/openai/error-shape.ts). */
export const OPENAI_ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'param', 'code'],
      properties: {
        message: { type: 'string', description: 'What went wrong and what to do, for a person.' },
        type: { type: 'string', enum: [...new Set([...ERROR_CODES, ...OPENAI_ONLY_CODES].map((code) => openAiErrorClassOf(code).type))] },
        param: { type: ['string', 'null'], description: 'The parameter at fault, when one is.' },
        code: { type: 'string', enum: [...ERROR_CODES, ...OPENAI_ONLY_CODES] },
      },
    },
  },
};

/** The OpenAI-shaped error body of one status of one OpenAI-compatible route. */
export function openAiErrorBodySchema(codes: readonly OpenAiErrorCode[]): object {
  const types = [...new Set(codes.map((code) => openAiErrorClassOf(code).type))];
  return {
    allOf: [
      { $ref: '#/components/schemas/OpenAiError' },
      { type: 'object', properties: { error: { type: 'object', properties: { type: { enum: types }, code: { enum: [...codes] } } } } },
    ],
  };
}
