import type { UploadRow } from '../../db/repos/uploads';
import type { PresignedUpload } from '../../storage/types';

/** `POST /v1/uploads` (decisions §6): where to PUT the bytes, and the URL to pass as `image_url`. */
export function presentUpload(upload: UploadRow, put: PresignedUpload, fileUrl: string) {
  return {
    id: upload.id,
    object: 'upload' as const,
    upload_url: put.url,
    method: put.method,
    headers: put.headers,
    expires_at: put.expiresAt.toISOString(),
    file_url: fileUrl,
    filename: upload.filename,
    content_type: upload.content_type,
    size_bytes: upload.size_bytes,
    created_at: upload.created_at.toISOString(),
  };
}
