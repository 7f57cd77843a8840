import { parseOpenAiChatRequest } from '../schemas/openai-chat';
import { withMaxCredits } from './max-credits-field';
import type { OperationDoc } from './operation-doc';

// The OpenAPI side of the OpenAI-compatible routes (api/routes/openai-chat.ts): OpenAI's shapes, and
// errors in OpenAI's shape and statuses (their route-table entries say `errorShape: 'openai'`).

const COMPLETION_SCHEMA = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices', 'usage'],
  properties: {
    id: { type: 'string', description: 'The generation’s id: GET /v1/generations/{id} shows its credits.' },
    object: { type: 'string', enum: ['chat.completion'] },
    created: { type: 'integer', description: 'Unix seconds.' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: {
        type: 'object',
        required: ['index', 'message', 'finish_reason'],
        properties: {
          index: { type: 'integer', enum: [0] },
          message: {
            type: 'object',
            required: ['role', 'content'],
            properties: { role: { type: 'string', enum: ['assistant'] }, content: { type: 'string' }, refusal: { type: 'null' } },
          },
          logprobs: { type: 'null' },
          finish_reason: { type: 'string', enum: ['stop', 'length'] },
        },
      },
    },
    usage: {
      type: 'object',
      required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
      properties: { prompt_tokens: { type: 'integer', minimum: 0 }, completion_tokens: { type: 'integer', minimum: 0 }, total_tokens: { type: 'integer', minimum: 0 } },
    },
  },
};

const MODEL_LIST_SCHEMA = {
  type: 'object',
  required: ['object', 'data'],
  properties: {
    object: { type: 'string', enum: ['list'] },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'object', 'created', 'owned_by'],
        properties: {
          id: { type: 'string', description: 'The model’s slug, to send as `model`.' },
          object: { type: 'string', enum: ['model'] },
          created: { type: 'integer', description: 'Always 0: the catalog keeps no release dates.' },
          owned_by: { type: 'string', description: 'The provider tried first.' },
        },
      },
    },
  },
};

export const OPENAI_OPERATIONS = {
  openAiChatCompletion: {
    tag: 'OpenAI-compatible',
    summary: 'Create a chat completion (OpenAI’s protocol)',
    description: [
      'OpenAI’s chat request and `chat.completion` answer, for the official OpenAI SDKs (base URL `/v1/openai`). Runs exactly as POST /v1/chat: reserved on max_tokens, charged on the tokens produced.',
      'Refused with 400, by name: `stream: true`, `n` > 1, `stop`, `seed`, `top_p` other than 1. Errors are in OpenAI’s shape; an unknown model is 404, no credits or budget left is 429 `insufficient_quota`.',
      'A chat that fails is 502 `generation_failed` (refunded); one still running when the sync window closes is 504 `generation_still_running` (it goes on: read GET /v1/generations/{id}).',
    ].join(' '),
    body: withMaxCredits(parseOpenAiChatRequest.schema),
    bodyRequired: true,
    responses: { 200: { description: 'The completion.', body: { schema: COMPLETION_SCHEMA } } },
    errors: [
      'unknown_model',
      'modality_mismatch',
      'capability_not_supported',
      'plan_upgrade_required',
      'insufficient_credits',
      'budget_exceeded',
      'max_cost_exceeded',
      'provider_unavailable',
    ],
    openAiErrors: ['generation_failed', 'generation_still_running', 'generation_canceled'],
  },
  openAiListModels: {
    tag: 'OpenAI-compatible',
    summary: 'List the chat models (OpenAI’s protocol)',
    description: 'The chat models of the catalog as OpenAI model objects. GET /v1/models has their prices and limits.',
    responses: { 200: { description: 'The chat models.', body: { schema: MODEL_LIST_SCHEMA } } },
  },
} satisfies Record<string, OperationDoc>;
