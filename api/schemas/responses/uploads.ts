// The Upload of POST /v1/uploads (api/presenters/upload.ts): where to PUT an input image, and the
// URL to pass as `image_url` afterwards.

import { UPLOAD_CONTENT_TYPES } from '../uploads';
import { enumOf, id, timestamp } from './shared';

const Upload = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'upload_url', 'method', 'headers', 'expires_at', 'file_url', 'filename', 'content_type', 'size_bytes', 'created_at'],
  properties: {
    id,
    object: { const: 'upload' },
    upload_url: { type: 'string', format: 'uri', description: 'Send the bytes here, with `method` and `headers`, before `expires_at`.' },
    method: { const: 'PUT' },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Headers the PUT must carry.' },
    expires_at: timestamp,
    file_url: { type: 'string', format: 'uri', description: 'What to pass as `image_url` once the bytes are uploaded.' },
    filename: { type: 'string' },
    content_type: enumOf(UPLOAD_CONTENT_TYPES),
    size_bytes: { type: 'integer' },
    created_at: timestamp,
  },
};

export const UPLOAD_SCHEMAS = { Upload };
