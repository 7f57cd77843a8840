import { MUSIC_DURATION_S } from '../../domain/media-durations';
import { compileValidator } from './ajv';
import { MAX_PROMPT_LENGTH, MAX_SEED } from './images';

export interface MusicRequest {
  model: string;
  prompt: string;
  duration_s?: number;
  with_vocals?: boolean;
  seed?: number;
}


export const parseMusicRequest = compileValidator<MusicRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['model', 'prompt'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200 },
    prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_LENGTH },
    duration_s: { type: 'integer', minimum: MUSIC_DURATION_S.min, maximum: MUSIC_DURATION_S.max },
    with_vocals: { type: 'boolean' },
    seed: { type: 'integer', minimum: 0, maximum: MAX_SEED },
  },
});
