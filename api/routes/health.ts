import type { ApiDeps } from '../context';
import { checkDependencies, DEPENDENCY_RETRY_AFTER_S } from '../dependency-health';
import { defineRoute, type AppRouter } from '../define-route';
import { ROUTES } from '../route-table';

/** Each probe's deadline: a load balancer asking /healthz gets its answer within 2 s, whatever is down. */
const HEALTH_CHECK_TIMEOUT_MS = 1_500;

/** 200 when Postgres and Temporal both answer, else 503 naming the one that did not. */
export function registerHealthRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.health, async (ctx) => {
    const health = await checkDependencies(deps, HEALTH_CHECK_TIMEOUT_MS);
    const ok = health.postgres === 'ok' && health.temporal === 'ok';
    ctx.status = ok ? 200 : 503;
    if (!ok) ctx.set('Retry-After', String(DEPENDENCY_RETRY_AFTER_S));
    ctx.body = ok ? { status: 'ok' } : { status: 'unavailable', ...health };
  });
}
