import { compileValidator } from './ajv';
import { promptedBodySchema, urlField } from './fields';

export interface VideoRequest {
  model: string;
  prompt: string;
  duration_s?: number;
  aspect_ratio?: string;
  image_url?: string;
  seed?: number;
}

// Spec §4 POST /v1/videos and decisions §10. The duration and aspect ratio are checked against the
// model's own limits by the handler (they differ per model).
export const parseVideoRequest = compileValidator<VideoRequest>(
  promptedBodySchema({
    duration_s: { type: 'integer', minimum: 1, maximum: 600 },
    aspect_ratio: { type: 'string', pattern: '^[1-9][0-9]?:[1-9][0-9]?$' },
    image_url: urlField,
  }),
);
