import { compileValidator } from './ajv';
import { MAX_PROMPT_LENGTH, MAX_SEED } from './images';

export interface ThreeDRequest {
  model: string;
  prompt: string;
  image_url?: string;
  texture_size?: '1024' | '2048' | '4096';
  mesh_complexity?: 'low' | 'medium' | 'high';
  rigged?: boolean;
  seed?: number;
}

// Spec §4 POST /v1/three-d; texture_size is a string enum there.
export const parseThreeDRequest = compileValidator<ThreeDRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['model', 'prompt'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200 },
    prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_LENGTH },
    image_url: { type: 'string', format: 'uri', maxLength: 4096 },
    texture_size: { type: 'string', enum: ['1024', '2048', '4096'] },
    mesh_complexity: { type: 'string', enum: ['low', 'medium', 'high'] },
    rigged: { type: 'boolean' },
    seed: { type: 'integer', minimum: 0, maximum: MAX_SEED },
  },
});
