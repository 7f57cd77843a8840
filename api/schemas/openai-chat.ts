import { compileValidator } from './ajv';
import { CHAT_LIMITS } from './chat';
import { modelField } from './fields';

// The body of POST /v1/openai/chat/completions: OpenAI's chat request, limited to the fields this
// service can honour (docs/api.md "OpenAI-compatible chat"). Any other field is refused as unknown, as
// OpenAI refuses a field it does not know; the fields it knows and we cannot honour (n > 1, stream,
// stop, seed, top_p other than 1) are refused by name in api/admission/generation-requests/openai-chat.ts.

export interface OpenAiTextPart {
  type: 'text';
  text: string;
}

export interface OpenAiChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string | OpenAiTextPart[];
  name?: string;
}

export interface OpenAiChatRequest {
  model: string;
  messages: OpenAiChatMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  n?: number | null;
  stream?: boolean | null;
  stop?: string | string[] | null;
  seed?: number | null;
  user?: string;
}

const MAX_CONTENT = 100_000;
const maxTokens = { type: ['integer', 'null'], minimum: 1, maximum: CHAT_LIMITS.maxTokens };

export const parseOpenAiChatRequest = compileValidator<OpenAiChatRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['model', 'messages'],
  properties: {
    model: modelField,
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: CHAT_LIMITS.maxMessages,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'content'],
        properties: {
          role: { type: 'string', enum: ['system', 'developer', 'user', 'assistant'] },
          content: {
            oneOf: [
              { type: 'string', minLength: 1, maxLength: MAX_CONTENT },
              {
                type: 'array',
                minItems: 1,
                maxItems: 100,
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['type', 'text'],
                  properties: { type: { type: 'string', enum: ['text'] }, text: { type: 'string', maxLength: MAX_CONTENT } },
                },
              },
            ],
          },
          // A participant's name: OpenAI passes it to the model; ours take none, and it changes nothing here.
          name: { type: 'string', maxLength: 200 },
        },
      },
    },
    max_tokens: maxTokens,
    max_completion_tokens: maxTokens,
    temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
    top_p: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    n: { type: ['integer', 'null'], minimum: 1, maximum: 128 },
    stream: { type: ['boolean', 'null'] },
    stop: { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 1000 }, { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 1000 } }] },
    seed: { type: ['integer', 'null'] },
    // The end user's id, which OpenAI keeps for abuse monitoring; it does not change the answer.
    user: { type: 'string', maxLength: 256 },
  },
});
