import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { loadDashboardBuild, type DashboardBuild } from '../dashboard-page/assets';
import { dashboardContentSecurityPolicy } from '../dashboard-page/content-security-policy';
import { ApiError } from '../errors';
import { ROUTES } from '../route-table';

/** Asset names carry a content hash (Vite's), so a browser may keep one a year. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built</h1><p>Run <code>npm run dashboard:build</code> (it runs on <code>npm ci</code>) and reload this page.</p></body></html>
`;

/**
 * GET /dashboard, the single-page app (dashboard/), and GET /dashboard/assets/:file, its built
 * files. Public: the page holds no data; it calls the API with the key a person pastes into it.
 */
export function registerDashboardRoutes(router: AppRouter, deps: ApiDeps): void {
  // Read on first request, and again while unbuilt, so a build made after start-up is picked up.
  let build: DashboardBuild | undefined;
  const current = () => (build ??= loadDashboardBuild());
  const policy = dashboardContentSecurityPolicy(deps.dashboardMediaOrigins);

  const securityHeaders = (set: (name: string, value: string) => void) => {
    set('X-Content-Type-Options', 'nosniff');
    set('Referrer-Policy', 'no-referrer');
  };

  defineRoute(router, deps, ROUTES.dashboardPage, (ctx) => {
    const built = current();
    ctx.type = 'text/html; charset=utf-8';
    securityHeaders((n, v) => ctx.set(n, v));
    ctx.set('Content-Security-Policy', policy);
    ctx.set('Cache-Control', 'no-cache');
    if (!built) {
      ctx.status = 503;
      ctx.body = NOT_BUILT_PAGE;
      return;
    }
    ctx.set('ETag', built.page.etag);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = built.page.body;
  });

  defineRoute(router, deps, ROUTES.dashboardAsset, (ctx) => {
    const name = ctx.params.file ?? '';
    const asset = current()?.assets.get(name);
    if (!asset) throw new ApiError('resource_not_found', `No such file of the dashboard: ${JSON.stringify(name)}.`, { param: 'file' });
    ctx.status = 200;
    ctx.set('ETag', asset.etag);
    ctx.set('Cache-Control', ASSET_CACHE_CONTROL);
    securityHeaders((n, v) => ctx.set(n, v));
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.contentType;
    ctx.body = asset.body;
  });
}
