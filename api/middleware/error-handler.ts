import type Koa from 'koa';
import { describeError } from '../../lib/logger';
import { ApiError } from '../errors';
import type { AppState } from '../context';

/**
 * Renders every failure as decisions §2's body. An unexpected error is logged and answered 500
 * without its message: a stack trace or a SQL string never reaches a client.
 */
export function errorHandler(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const apiError = err instanceof ApiError ? err : undefined;
      const rendered = apiError ?? new ApiError('internal_error', 'An internal error occurred. Retry later, quoting the request id if it persists.');
      if (!apiError) {
        ctx.state.logger.error('unhandled error', describeError(err));
        ctx.app.emit('error', err, ctx);
      }
      ctx.status = rendered.status;
      ctx.set(rendered.headers ?? {});
      ctx.body = rendered.toBody(ctx.state.requestId);
    }
  };
}
