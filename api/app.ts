import Koa from 'koa';
import type { ApiDeps, AppState } from './context';
import { ApiError } from './errors';
import { errorHandler } from './middleware/error-handler';
import { httpMetrics } from './middleware/http-metrics';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { traceRequests } from './middleware/trace-requests';
import { createRouter } from './routes';

/** Middleware order only; every piece is built elsewhere. */
export function createApp(deps: ApiDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = false;
  app.silent = true;

  if (deps.tracer) app.use(traceRequests(deps.tracer));
  app.use(requestId(deps.logger));
  app.use(requestLog());
  app.use(httpMetrics());
  app.use(errorHandler());

  app.use(createRouter(deps).routes());

  app.use(async (ctx) => {
    throw new ApiError('resource_not_found', `Unrecognized request URL (${ctx.method} ${ctx.path}).`);
  });
  return app;
}
