import { verifyProviderCallbackToken } from '../../domain/callback-token';
import { notifyProviderCallback } from '../../db/provider-callbacks';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { ROUTES } from '../route-table';

/**
 * POST /v1/provider-callbacks/{generation id}?expires=…&token=…: a queue-style provider says the job changed.
 * The body is not trusted or even read: the worker polling the job is told to poll now
 * (activities/poll-hints.ts), and the result always comes from the provider's own API. 204
 * whatever the generation's state; 503 when Postgres cannot pass it on, so the provider retries.
 */
export function registerProviderCallbackRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.providerCallback, async (ctx) => {
    const id = ctx.params.id ?? '';
    if (!verifyProviderCallbackToken(deps.providerCallbackSecret, id, ctx.query.expires, ctx.query.token, deps.clock())) {
      throw new ApiError('invalid_signature', 'This callback URL is not one the service handed out, or it has expired with its job.');
    }
    await notifyProviderCallback(deps.knex, id);
    ctx.status = 204;
  });
}
