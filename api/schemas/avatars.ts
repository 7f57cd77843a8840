import { compileValidator } from './ajv';
import { modelField, seedField, urlField } from './fields';

export interface AvatarRequest {
  model: string;
  text?: string;
  avatar_id?: string;
  voice_id?: string;
  video_url?: string;
  audio_url?: string;
  /** A portrait photo, an extension on `animates_portrait` models (in place of avatar_id's portrait or video_url's first frame). */
  image_url?: string;
  seed?: number;
}

// Decisions §10: text-to-avatar {model, text, avatar_id?, voice_id?} or lipsync
// {model, video_url, audio_url}, never both; the handler tells which shape a body is and checks
// avatar_id against the stock avatars. `image_url`, a portrait photo, is an extension on the models
// that animate one (with text, or in place of video_url).
export const parseAvatarRequest = compileValidator<AvatarRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['model'],
  properties: {
    model: modelField,
    text: { type: 'string', minLength: 1, maxLength: 5_000 },
    avatar_id: { type: 'string', minLength: 1, maxLength: 200 },
    voice_id: { type: 'string', minLength: 1, maxLength: 200 },
    video_url: urlField,
    audio_url: urlField,
    image_url: urlField,
    seed: seedField,
  },
});
