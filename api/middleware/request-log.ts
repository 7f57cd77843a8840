import type Koa from 'koa';
import type { AppState } from '../context';

/** One structured line per request. The path only: signed URLs keep their query out of logs. */
export function requestLog(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      ctx.state.logger.info('request', {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        key_prefix: ctx.state.principal?.keyPrefix,
        organization_id: ctx.state.principal?.organizationId,
      });
    }
  };
}
