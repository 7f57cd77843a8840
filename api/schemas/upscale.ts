import { compileValidator } from './ajv';

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
    model: { type: 'string', minLength: 1, maxLength: 200 },
    image_url: { type: 'string', format: 'uri', maxLength: 4096 },
    scale_factor: { type: 'string', enum: ['2', '4'] },
    face_enhance: { type: 'boolean' },
  },
});
