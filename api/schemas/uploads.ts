import { compileValidator } from './ajv';

// Decisions §6: uploads are input images, 20 MB at most.
export const UPLOAD_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export const MAX_FILENAME_LENGTH = 255;

export interface CreateUploadRequest {
  filename: string;
  content_type: UploadContentType;
  size_bytes: number;
}

// That a filename has no path separator is checked by the route, which can say so plainly.
export const parseCreateUpload = compileValidator<CreateUploadRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['filename', 'content_type', 'size_bytes'],
  properties: {
    filename: { type: 'string', minLength: 1, maxLength: MAX_FILENAME_LENGTH },
    content_type: { type: 'string', enum: [...UPLOAD_CONTENT_TYPES] },
    size_bytes: { type: 'integer', minimum: 1, maximum: MAX_UPLOAD_BYTES },
  },
});
