import type Koa from 'koa';
import { classifyDependencyError } from '../../lib/dependency-errors';
import { describeError } from '../../lib/logger';
import { dependencyUnavailable } from '../dependency-health';
import { ApiError } from '../errors';
import type { AppState } from '../context';

/**
 * Renders every failure as decisions §2's body. Postgres or Temporal being unreachable is 503
 * service_unavailable with Retry-After, wherever in the chain it surfaced (authentication, rate
 * limiting, a handler). Any other unexpected error is logged and answered 500 without its message:
 * a stack trace or a SQL string never reaches a client.
 */
export function errorHandler(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const rendered = asApiError(ctx, err);
      ctx.status = rendered.status;
      ctx.set(rendered.headers ?? {});
      ctx.body = rendered.toBody(ctx.state.requestId);
    }
  };
}

/** The ApiError a failure is answered as: itself, or what an unexpected error becomes (logged). */
export function asApiError(ctx: Koa.ParameterizedContext<AppState>, err: unknown): ApiError {
  return err instanceof ApiError ? err : renderUnexpected(ctx, err);
}

function renderUnexpected(ctx: Koa.ParameterizedContext<AppState>, err: unknown): ApiError {
  const dependency = classifyDependencyError(err);
  if (dependency) {
    // An outage, not a bug: logged, but not raised as an application error.
    ctx.state.logger.warn('dependency unavailable', { dependency, ...describeError(err) });
    return dependencyUnavailable(dependency);
  }
  ctx.state.logger.error('unhandled error', describeError(err));
  ctx.app.emit('error', err, ctx);
  return new ApiError('internal_error', 'An internal error occurred. Retry later, quoting the request id if it persists.');
}
