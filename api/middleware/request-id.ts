import type Koa from 'koa';
import { newId } from '../../lib/ids';
import type { Logger } from '../../lib/logger';
import type { AppState } from '../context';

/** Every response carries X-Request-Id; logs and error bodies repeat it. */
export function requestId(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.receivedAt = performance.now();
    ctx.state.requestId = newId('req');
    ctx.state.logger = logger.child({ request_id: ctx.state.requestId });
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
