import { ASPECT_RATIOS, type AspectRatio } from '../../domain/image-sizes';
import { compileValidator } from './ajv';

export const MAX_PROMPT_LENGTH = 4000;
export const MAX_SEED = 4_294_967_295;

export interface ImageRequest {
  model: string;
  prompt: string;
  aspect_ratio?: AspectRatio;
  num_outputs?: number;
  negative_prompt?: string;
  seed?: number;
  /** Image-to-image: the input image (an upload's file_url, or https). */
  image_url?: string;
}

// Spec §4 POST /v1/images. Strings are bounded here even where the spec is silent (prompt and
// negative_prompt share the 4,000-character cap of comparisons and 3D); unknown fields are
// rejected so that a misspelt parameter is never silently ignored. `image_url` (image-to-image) is
// the field the spec leaves unnamed; it is the name the video, 3D and upscale endpoints use.
export const parseImageRequest = compileValidator<ImageRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['model', 'prompt'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200 },
    prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_LENGTH },
    aspect_ratio: { type: 'string', enum: [...ASPECT_RATIOS] },
    num_outputs: { type: 'integer', minimum: 1, maximum: 4 },
    negative_prompt: { type: 'string', maxLength: MAX_PROMPT_LENGTH },
    seed: { type: 'integer', minimum: 0, maximum: MAX_SEED },
    image_url: { type: 'string', format: 'uri', maxLength: 4096 },
  },
});
