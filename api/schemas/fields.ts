import { MAX_PROMPT_LENGTH, MAX_SEED } from './images';

// Fields several creation bodies share, defined once.
export const modelField = { type: 'string', minLength: 1, maxLength: 200 } as const;
export const promptField = { type: 'string', minLength: 1, maxLength: MAX_PROMPT_LENGTH } as const;
export const seedField = { type: 'integer', minimum: 0, maximum: MAX_SEED } as const;
export const urlField = { type: 'string', format: 'uri', maxLength: 4096 } as const;

/** A creation body with a required `model` and `prompt`, optional `seed`, and its own fields. */
export function promptedBodySchema(properties: Record<string, object>): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['model', 'prompt'],
    properties: { model: modelField, prompt: promptField, seed: seedField, ...properties },
  };
}
