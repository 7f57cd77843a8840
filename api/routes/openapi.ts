import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { openApiDocumentText } from '../openapi/build-document';
import { ROUTES } from '../route-table';

/** GET /openapi.json: the contract as a document, with no authentication (Stripe and OpenAI publish theirs). */
export function registerOpenApiRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.openapi, (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openApiDocumentText();
  });
}
