import { compileValidator } from './ajv';

// POST /v1/quotes (docs/api.md "Quotes"): the creation endpoint to price and the body it would be
// sent. The body is read by that endpoint's own schema (api/admission/quote.ts), so here it is only
// an object; `endpoint` names one of the routes that reserve credits.

export const QUOTABLE_ENDPOINTS = [
  '/v1/images',
  '/v1/videos',
  '/v1/voice',
  '/v1/music',
  '/v1/avatars',
  '/v1/chat',
  '/v1/three-d',
  '/v1/upscale',
  '/v1/openai/chat/completions',
  '/v1/comparisons',
] as const;

export type QuotableEndpoint = (typeof QUOTABLE_ENDPOINTS)[number];

export interface QuoteRequest {
  endpoint: QuotableEndpoint;
  body: Record<string, unknown>;
}

export const parseQuoteRequest = compileValidator<QuoteRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['endpoint', 'body'],
  properties: {
    endpoint: { type: 'string', enum: [...QUOTABLE_ENDPOINTS] },
    body: { type: 'object' },
  },
});
