import type Koa from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../errors';
import type { AppState } from '../context';

export const MAX_BODY_BYTES = 1024 * 1024;

function hasBody(req: Koa.Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** JSON only, 1 MiB at most (decisions §2: 413, 415); a request without a body reads as `{}`. */
export function jsonBody(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.body = {};
    if (!hasBody(ctx.request)) return next();
    if (!ctx.request.is('application/json')) {
      throw new ApiError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
    }
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') {
        throw new ApiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
      }
      throw new ApiError('validation_failed', 'The request body could not be read.');
    }
    try {
      ctx.state.body = JSON.parse(text);
    } catch {
      throw new ApiError('validation_failed', 'The request body is not valid JSON.');
    }
    return next();
  };
}
