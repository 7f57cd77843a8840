import Router from '@koa/router';
import type { ApiDeps, AppState } from '../context';

/** 200 when Postgres and Temporal both answer, else 503 naming the one that did not. */
export function healthRouter(deps: ApiDeps) {
  const router = new Router<AppState>();

  router.get('/healthz', async (ctx) => {
    const checks = await Promise.allSettled([
      deps.knex.raw('select 1'),
      deps.temporal.workflowService.getSystemInfo({}),
    ]);
    const [postgres, temporal] = checks.map((c) => (c.status === 'fulfilled' ? 'ok' : 'unavailable'));
    const ok = postgres === 'ok' && temporal === 'ok';
    ctx.status = ok ? 200 : 503;
    ctx.body = ok ? { status: 'ok' } : { status: 'unavailable', postgres, temporal };
  });

  return router;
}
