import Router from '@koa/router';
import Koa from 'koa';
import type { ApiDeps, AppState } from './context';
import { ApiError } from './errors';
import { authenticate } from './middleware/authenticate';
import { errorHandler } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { adminRouter } from './routes/admin';
import { filesRouter } from './routes/files';
import { generationsRouter } from './routes/generations';
import { healthRouter } from './routes/health';
import { imagesRouter } from './routes/images';

/** Middleware order only; every piece is built elsewhere. */
export function createApp(deps: ApiDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = false;
  app.silent = true;

  app.use(requestId(deps.logger));
  app.use(requestLog());
  app.use(errorHandler());
  app.use(jsonBody());

  const publicRoutes = new Router<AppState>();
  for (const router of [healthRouter(deps), filesRouter(deps), adminRouter(deps)]) {
    publicRoutes.use(router.routes());
  }
  app.use(publicRoutes.routes());

  const v1 = new Router<AppState>();
  v1.use('/v1', authenticate(deps.repos.apiKeys));
  for (const router of [imagesRouter(deps), generationsRouter(deps)]) {
    v1.use(router.routes());
  }
  app.use(v1.routes());

  app.use(async (ctx) => {
    throw new ApiError('resource_not_found', `Unrecognized request URL (${ctx.method} ${ctx.path}).`);
  });
  return app;
}
