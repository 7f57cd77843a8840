import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ROUTES } from '../route-table';

/** 200 when Postgres and Temporal both answer, else 503 naming the one that did not. */
export function registerHealthRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.health, async (ctx) => {
    const checks = await Promise.allSettled([
      deps.knex.raw('select 1'),
      deps.temporal.workflowService.getSystemInfo({}),
    ]);
    const [postgres, temporal] = checks.map((c) => (c.status === 'fulfilled' ? 'ok' : 'unavailable'));
    const ok = postgres === 'ok' && temporal === 'ok';
    ctx.status = ok ? 200 : 503;
    ctx.body = ok ? { status: 'ok' } : { status: 'unavailable', postgres, temporal };
  });
}
