import { compileValidator } from './ajv';
import { promptedBodySchema, urlField } from './fields';

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
export const parseThreeDRequest = compileValidator<ThreeDRequest>(
  promptedBodySchema({
    image_url: urlField,
    texture_size: { type: 'string', enum: ['1024', '2048', '4096'] },
    mesh_complexity: { type: 'string', enum: ['low', 'medium', 'high'] },
    rigged: { type: 'boolean' },
  }),
);
