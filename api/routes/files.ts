import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { ROUTES } from '../route-table';

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  glb: 'model/gltf-binary',
};

/** Local storage's signed GET (decisions §6): the signature, not an API key, authorizes it. */
export function registerFileRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.file, async (ctx) => {
    const key = decodeURIComponent(ctx.path.slice('/files/'.length));
    const { expires, signature } = ctx.query;
    const valid = deps.urlSigner.verify(key, typeof expires === 'string' ? expires : undefined, typeof signature === 'string' ? signature : undefined);
    if (!valid) {
      throw new ApiError('resource_not_found', 'This file URL is invalid or has expired. Fetch the resource again for a fresh URL.');
    }
    const file = await deps.storage.open(key);
    if (!file) throw new ApiError('resource_not_found', 'This file no longer exists.');
    ctx.type = MIME_BY_EXTENSION[key.split('.').pop() ?? ''] ?? 'application/octet-stream';
    ctx.length = file.size;
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.body = file.stream;
  });
}
