import { compileValidator } from './ajv';
import { modelField } from './fields';

export interface ChatMessage {
  role?: 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  system_prompt?: string;
}

/** Spec §8. */
export const CHAT_LIMITS = { maxMessages: 50, maxTokens: 8000, defaultMaxTokens: 1024, maxSystemPrompt: 8000 } as const;

// Spec §4 POST /v1/chat. A message has `content` and, optionally, a `role` (user, the default, or
// assistant for earlier turns); the system prompt has its own field.
export const parseChatRequest = compileValidator<ChatRequest>({
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
        required: ['content'],
        properties: {
          role: { type: 'string', enum: ['user', 'assistant'] },
          content: { type: 'string', minLength: 1, maxLength: 100_000 },
        },
      },
    },
    max_tokens: { type: 'integer', minimum: 1, maximum: CHAT_LIMITS.maxTokens },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    system_prompt: { type: 'string', maxLength: CHAT_LIMITS.maxSystemPrompt },
  },
});
