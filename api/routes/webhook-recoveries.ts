import { DEFAULTED_UNTIL_REUSE_MS, enableFirstHint, recoveryWindowRefusal } from '../../domain/webhook-recovery';
import { startWebhookRecovery } from '../../workflow-starts/webhook-recovery';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentRecovery } from '../presenters/webhook-recovery';
import { ROUTES } from '../route-table';
import { parseRecoverWebhook } from '../schemas/webhook-recoveries';

// Bulk recovery (issue 41, item 4; docs/api.md "Bulk recovery"): replays a webhook's exhausted
// deliveries of a window as a background job (workflows/webhook-recovery.ts), one recovery per
// window. The recovery's row is committed first, then its workflow started; a start that fails
// withdraws the row and answers 503, so no recovery is left `queued` with nothing to run it (a
// retried request of a window whose recovery is still `queued` starts its workflow again).

export function registerWebhookRecoveryRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.recoverWebhook, async (ctx) => {
    const principal = principalOf(ctx);
    const webhookId = ctx.params.id ?? '';
    const body = parseRecoverWebhook(ctx.state.body);
    if (!deps.webhooks) throw new ApiError('service_unavailable', 'Webhooks are not configured on this server: its operator must set WEBHOOK_SECRETS_KEY.');
    const now = deps.clock();
    const window = { since: new Date(body.since), until: body.until === undefined ? undefined : new Date(body.until) };
    const refused = recoveryWindowRefusal(window, now, deps.eventRetentionDays);
    if (refused) throw new ApiError('validation_failed', refused.message, { param: refused.param });
    const outcome = await deps.repos.webhookRecoveries.createOrFind({ webhookId, owner: principal, ...window, now, defaultedReuseMs: DEFAULTED_UNTIL_REUSE_MS });
    if (outcome.kind === 'no_webhook') throw notFound('webhook', webhookId);
    if (outcome.kind === 'disabled')
      throw new ApiError('webhook_disabled', `Webhook '${webhookId}' is disabled, so its deliveries would end at once: ${enableFirstHint(webhookId)}.`);
    const { recovery } = outcome;
    if (outcome.kind === 'created' || recovery.status === 'queued') {
      try {
        await startWebhookRecovery(deps.temporal, deps.webhooks.relay.taskQueue, recovery.id, deps.webhooks.recoveryPaging);
      } catch (err) {
        if (outcome.kind === 'created') await deps.repos.webhookRecoveries.forget(recovery.id);
        throw err;
      }
    }
    const shown = await deps.repos.webhookRecoveries.find(recovery.id, principal);
    if (!shown) throw notFound('webhook recovery', recovery.id);
    ctx.status = outcome.kind === 'created' ? 202 : 200;
    ctx.body = presentRecovery(shown);
  });

  defineRoute(router, deps, ROUTES.getWebhookRecovery, async (ctx) => {
    const id = ctx.params.id ?? '';
    const recovery = await deps.repos.webhookRecoveries.find(id, principalOf(ctx));
    if (!recovery) throw notFound('webhook recovery', id);
    ctx.body = presentRecovery(recovery);
  });
}
