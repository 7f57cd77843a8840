import { MUSIC_DURATION_S } from '../../domain/media-durations';
import { compileValidator } from './ajv';
import { promptedBodySchema } from './fields';

export interface MusicRequest {
  model: string;
  prompt: string;
  duration_s?: number;
  with_vocals?: boolean;
  seed?: number;
}

export const parseMusicRequest = compileValidator<MusicRequest>(
  promptedBodySchema({
    duration_s: { type: 'integer', minimum: MUSIC_DURATION_S.min, maximum: MUSIC_DURATION_S.max },
    with_vocals: { type: 'boolean' },
  }),
);
