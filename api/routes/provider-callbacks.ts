import { verifyProviderCallbackToken } from '../../lib/callback-token';
import { classifyDependencyError } from '../../lib/dependency-errors';
import { providerCallbackSignal } from '../../workflows/definitions';
import type { ApiDeps } from '../context';
import { withTemporalDeadline } from '../dependency-health';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { ROUTES } from '../route-table';

/**
 * POST /v1/provider-callbacks/{generation id}?expires=…&token=…: a queue-style provider says the job changed.
 * The body is not trusted or even read: the workflow is told to poll the provider now, and the
 * result always comes from the provider's own API. 204 whatever the generation's state.
 */
export function registerProviderCallbackRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.providerCallback, async (ctx) => {
    const id = ctx.params.id ?? '';
    if (!verifyProviderCallbackToken(deps.providerCallbackSecret, id, ctx.query.expires, ctx.query.token, deps.clock())) {
      throw new ApiError('invalid_signature', 'This callback URL is not one the service handed out, or it has expired with its job.');
    }
    try {
      await withTemporalDeadline(deps.temporal, () => deps.temporal.workflow.getHandle(id).signal(providerCallbackSignal));
    } catch (err) {
      // Temporal unreachable: 503 makes the provider deliver the callback again later.
      if (err instanceof ApiError || classifyDependencyError(err)) throw err;
      // A finished generation has no workflow to wake: a late callback is not an error.
      deps.logger.debug('provider callback for a closed workflow', { generation_id: id, error: String(err) });
    }
    ctx.status = 204;
  });
}
