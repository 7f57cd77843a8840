import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { findDocsAsset, SWAGGER_UI_VERSION } from '../docs-page/assets';
import { DOCS_CONTENT_SECURITY_POLICY, docsPageHtml } from '../docs-page/page';
import { ApiError } from '../errors';
import { openApiDocumentText } from '../openapi/build-document';
import { ROUTES } from '../route-table';

const ASSET_BASE = ROUTES.docsAsset.path.slice(0, -'/:file'.length);

/** An asset's URL carries swagger-ui-dist's version, so a browser may keep it a year. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * GET /docs: the API reference, Swagger UI rendering GET /openapi.json, and GET /docs/assets/:file,
 * the files it loads (api/docs-page/). Public like the document itself, and needing nothing from
 * another origin, so it works offline.
 */
export function registerDocsRoutes(router: AppRouter, deps: ApiDeps): void {
  // Built on the first request, not at start-up: titled like the document (its info.title).
  let html: string | undefined;
  const page = () => (html ??= docsPageHtml(`${(JSON.parse(openApiDocumentText()) as { info: { title: string } }).info.title}: API reference`, ASSET_BASE, SWAGGER_UI_VERSION));

  defineRoute(router, deps, ROUTES.docsPage, (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = page();
  });

  defineRoute(router, deps, ROUTES.docsAsset, (ctx) => {
    const name = ctx.params.file ?? '';
    const asset = findDocsAsset(name);
    if (!asset) throw new ApiError('resource_not_found', `No such file of the API reference page: ${JSON.stringify(name)}.`, { param: 'file' });
    ctx.status = 200;
    ctx.set('ETag', asset.etag);
    ctx.set('Cache-Control', ASSET_CACHE_CONTROL);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.contentType;
    ctx.body = asset.body;
  });
}
