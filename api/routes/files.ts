import getRawBody from 'raw-body';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { outputGone } from '../../domain/output-retention';
import { ApiError } from '../errors';
import { ROUTES } from '../route-table';

const keyOf = (path: string) => {
  try {
    return decodeURIComponent(path.slice('/files/'.length));
  } catch {
    throw new ApiError('resource_not_found', 'This file URL is malformed.');
  }
};

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * An output file whose every output row is gone (past its `expires_at`, or deleted) answers 410,
 * whether or not the sweep has removed the file yet: the expiry is the rule, the sweep its cleanup.
 * A file shared by cache hits is served while any of its outputs is live.
 */
async function refuseGoneOutput(deps: ApiDeps, key: string): Promise<void> {
  const lifetimes = await deps.repos.outputExpiries.lifetimesOfKey(key);
  const now = deps.clock();
  if (lifetimes.length === 0 || !lifetimes.every((l) => outputGone(l, now))) return;
  const [first] = lifetimes;
  const generation = first!.generation_id;
  // Removed by the sweep (or a DELETE after it expired): it expired. Removed before: it was deleted.
  const expiredAt = first!.expires_at === null ? undefined : new Date(first!.expires_at);
  const deletedAt = first!.deleted_at === null ? undefined : new Date(first!.deleted_at);
  const gone = expiredAt && expiredAt <= (deletedAt ?? now) ? `expired at ${expiredAt.toISOString()}` : `was deleted at ${deletedAt!.toISOString()}`;
  throw new ApiError(
    'output_expired',
    `This output ${gone} and its file is no longer served. The generation record remains: GET /v1/generations/${generation}. Ask for a longer \`retention\` when creating a job to keep its files longer.`,
  );
}

/**
 * Local storage's signed URLs (decisions §6): the signature, not an API key, authorizes them.
 * A bad or expired signature is 403; a valid one for a file that does not exist is 404.
 */
export function registerFileRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.file, async (ctx) => {
    const key = keyOf(ctx.path);
    if (!deps.urlSigner.verify(key, text(ctx.query.expires), text(ctx.query.signature))) {
      throw new ApiError('invalid_signature', 'This file URL is invalid or has expired. Fetch the resource again for a fresh URL.');
    }
    await refuseGoneOutput(deps, key);
    const file = await deps.storage.open(key);
    if (!file) throw new ApiError('resource_not_found', 'This file no longer exists.');
    ctx.type = file.contentType;
    ctx.length = file.size;
    ctx.set('Cache-Control', 'private, max-age=3600');
    // Uploads are served from the API's own origin: a browser must take the stored type as given,
    // never sniff an "image" into HTML or script.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = file.stream;
  });

  // The PUT step of an upload: the body is the file, of exactly the signed Content-Type and at
  // most the signed size. A wrong Content-Type is 403, as S3 answers a header outside its signature.
  defineRoute(router, deps, ROUTES.uploadFile, async (ctx) => {
    const key = keyOf(ctx.path);
    const signed = deps.urlSigner.verifyPut(key, ctx.query);
    if (!signed) {
      throw new ApiError('invalid_signature', 'This upload URL is invalid or has expired. Create a new upload for a fresh URL.');
    }
    if (ctx.get('Content-Type').trim() !== signed.contentType) {
      throw new ApiError('invalid_signature', `This upload URL was signed for Content-Type: ${signed.contentType}; send exactly that header.`);
    }
    const tooLarge = () => new ApiError('payload_too_large', `This upload URL accepts at most ${signed.maxBytes} bytes, the size_bytes of its upload.`);
    const declared = ctx.get('Content-Length');
    if (declared && Number(declared) > signed.maxBytes) throw tooLarge();
    let data: Buffer;
    try {
      // Without Content-Length (chunked), the limit aborts the read as soon as it is passed.
      data = await getRawBody(ctx.req, { limit: signed.maxBytes, length: declared || undefined });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') throw tooLarge();
      throw new ApiError('validation_failed', 'The upload body could not be read completely.');
    }
    if (data.length === 0) throw new ApiError('validation_failed', 'The upload body is empty; send the file as the request body.');
    await deps.storage.put(key, data, signed.contentType);
    ctx.status = 200;
    ctx.body = '';
  });
}
