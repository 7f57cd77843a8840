import { compileValidator } from './ajv';
import { modelField, urlField } from './fields';

export interface UpscaleRequest {
  model: string;
  image_url: string;
  scale_factor?: '2' | '4';
  face_enhance?: boolean;
}

// Spec §4 POST /v1/upscale; scale_factor is a string enum there.
export const parseUpscaleRequest = compileValidator<UpscaleRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['model', 'image_url'],
  properties: {
    model: modelField,
    image_url: urlField,
    scale_factor: { type: 'string', enum: ['2', '4'] },
    face_enhance: { type: 'boolean' },
  },
});
