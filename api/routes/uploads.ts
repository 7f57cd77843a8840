import { newId } from '../../lib/ids';
import { extensionOf, mimeOfKey } from '../../storage/mime';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentUpload } from '../presenters/upload';
import { ROUTES } from '../route-table';
import { parseCreateUpload } from '../schemas/uploads';

/**
 * The last part of the storage key: the caller's file name reduced to safe characters, with an
 * extension that names its content type, so that the file is served with the right type.
 */
export function storageFileName(filename: string, contentType: string): string {
  const safe =
    filename
      .replace(/[^A-Za-z0-9_.-]+/g, '_')
      .replace(/^[._]+|\.+$/g, '')
      .slice(0, 100) || 'file';
  return mimeOfKey(safe) === contentType ? safe : `${safe}.${extensionOf(contentType) ?? 'bin'}`;
}

// POST /v1/uploads (decisions §6): no credits are spent; the client then PUTs the bytes to
// `upload_url` (local storage: this API; S3: the bucket) and passes `file_url` as `image_url`.
export function registerUploadRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createUpload, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseCreateUpload(ctx.state.body);
    if (/[/\\\u0000-\u001f\u007f]/.test(body.filename)) {
      throw new ApiError('validation_failed', 'Invalid filename: a file name only, without "/", "\\" or control characters.', { param: 'filename' });
    }
    const id = newId('upl');
    const storageKey = `uploads/${principal.organizationId}/${id}/${storageFileName(body.filename, body.content_type)}`;
    const put = await deps.storage.presignPut(storageKey, { contentType: body.content_type, sizeBytes: body.size_bytes });
    const fileUrl = await deps.storage.signedGetUrl(storageKey);
    const upload = await deps.repos.uploads.create({
      id,
      organization_id: principal.organizationId,
      environment: principal.environment,
      api_key_id: principal.apiKeyId,
      storage_key: storageKey,
      filename: body.filename,
      content_type: body.content_type,
      size_bytes: body.size_bytes,
    });
    ctx.status = 201;
    ctx.body = presentUpload(upload, put, fileUrl);
  });
}
