import { quoteRequest } from '../admission/quote';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { parseQuoteRequest } from '../schemas/quotes';

/** POST /v1/quotes (200): what a creation request would reserve, checked as that request would be, reserving nothing. */
export function registerQuoteRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createQuote, async (ctx) => {
    const principal = principalOf(ctx);
    const { endpoint, body } = parseQuoteRequest(ctx.state.body);
    ctx.body = await quoteRequest(deps, principal, endpoint, body, ctx.headers);
  });
}
