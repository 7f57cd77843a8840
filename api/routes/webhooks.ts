import type { WebhookDeps } from '../../config/webhook-settings';
import { vetWebhookUrl } from '../../lib/webhook-url';
import { startWebhookDelivery } from '../../workflow-starts/webhook-delivery';
import { newWebhookSecret } from '../../domain/webhook-signature';
import { enableFirstHint } from '../../domain/webhook-recovery';
import { MAX_WEBHOOKS_PER_ENVIRONMENT } from '../../domain/webhook-limit';
import { newId } from '../../lib/ids';
import { webhookSecretBinding } from '../../lib/secret-bindings';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentDelivery, presentWebhook } from '../presenters/webhook';
import { ROUTES } from '../route-table';
import { parseListQuery } from '../schemas/list-query';
import { parseCreateWebhook, parseDeliveryListQuery, parseUpdateWebhook } from '../schemas/webhooks';

/** After a rotation the old secret keeps signing this long, so receivers can roll without downtime. */
const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

function webhooksOf(deps: ApiDeps): WebhookDeps {
  if (!deps.webhooks) throw new ApiError('service_unavailable', 'Webhooks are not configured on this server: its operator must set WEBHOOK_SECRETS_KEY.');
  return deps.webhooks;
}

export function registerWebhookRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createWebhook, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseCreateWebhook(ctx.state.body);
    const webhooks = webhooksOf(deps);
    const refused = await vetWebhookUrl(body.url, { allowPrivateAddresses: webhooks.allowPrivateAddresses });
    if (refused) throw new ApiError('validation_failed', `Invalid url: ${refused}`, { param: 'url' });
    const secret = newWebhookSecret();
    const id = newId('whk');
    const row = await deps.repos.webhooks.insertWithinLimit(
      {
        id,
        organization_id: principal.organizationId,
        environment: principal.environment,
        url: body.url,
        events: body.events,
        description: body.description ?? null,
        secret_sealed: webhooks.secretBox.seal(secret, webhookSecretBinding(id)),
        max_deliveries_per_second: body.max_deliveries_per_second ?? null,
      },
      MAX_WEBHOOKS_PER_ENVIRONMENT,
    );
    if (!row) {
      throw new ApiError(
        'webhook_limit_reached',
        `This organization already has ${MAX_WEBHOOKS_PER_ENVIRONMENT} webhooks in its ${principal.environment} environment, the most it may have. Delete one it no longer needs (DELETE /v1/webhooks/{id}), or send more event types to one webhook.`,
      );
    }
    ctx.status = 201;
    ctx.body = presentWebhook(row, secret);
  });

  defineRoute(router, deps, ROUTES.listWebhooks, async (ctx) => {
    const principal = principalOf(ctx);
    const query = parseListQuery(ctx.query);
    let startingAfter;
    if (query.starting_after) {
      startingAfter = await deps.repos.webhooks.find(query.starting_after, principal);
      if (!startingAfter) throw new ApiError('resource_not_found', `No such webhook: '${query.starting_after}'.`, { param: 'starting_after' });
    }
    const page = await deps.repos.webhooks.listPage(principal, { limit: Number(query.limit ?? 20), ...(startingAfter && { startingAfter }) });
    ctx.body = { object: 'list', data: page.rows.map((row) => presentWebhook(row)), has_more: page.hasMore };
  });

  defineRoute(router, deps, ROUTES.getWebhook, async (ctx) => {
    const row = await deps.repos.webhooks.find(ctx.params.id ?? '', principalOf(ctx));
    if (!row) throw notFound('webhook', ctx.params.id ?? '');
    ctx.body = presentWebhook(row);
  });

  defineRoute(router, deps, ROUTES.updateWebhook, async (ctx) => {
    const body = parseUpdateWebhook(ctx.state.body);
    const id = ctx.params.id ?? '';
    let row = body.status ? await deps.repos.webhooks.enable(id, principalOf(ctx)) : await deps.repos.webhooks.find(id, principalOf(ctx));
    if (row && body.max_deliveries_per_second !== undefined) row = await deps.repos.webhooks.setMaxDeliveriesPerSecond(id, principalOf(ctx), body.max_deliveries_per_second);
    if (!row) throw notFound('webhook', id);
    ctx.body = presentWebhook(row);
  });

  // Deletes the subscription and ends its deliveries waiting for a retry in one transaction, then
  // cancels their workflows' timers: no attempt is sent after the answer.
  defineRoute(router, deps, ROUTES.deleteWebhook, async (ctx) => {
    const id = ctx.params.id ?? '';
    const { deleted, endedDeliveries } = await deps.repos.webhooks.softDelete(id, principalOf(ctx));
    if (!deleted) throw notFound('webhook', id);
    await Promise.all(
      endedDeliveries.map((deliveryId) =>
        deps.temporal.workflow
          .getHandle(deliveryId)
          .cancel()
          .catch((err: unknown) => deps.logger.debug('cancel of an ended delivery', { delivery_id: deliveryId, error: String(err) })),
      ),
    );
    ctx.body = { id, object: 'webhook', deleted: true };
  });

  defineRoute(router, deps, ROUTES.rotateWebhookSecret, async (ctx) => {
    const id = ctx.params.id ?? '';
    const webhooks = webhooksOf(deps);
    const secret = newWebhookSecret();
    const row = await deps.repos.webhooks.rotateSecret(
      id,
      principalOf(ctx),
      webhooks.secretBox.seal(secret, webhookSecretBinding(id)),
      new Date(Date.now() + PREVIOUS_SECRET_TTL_MS),
    );
    if (!row) throw notFound('webhook', id);
    ctx.body = presentWebhook(row, secret);
  });

  defineRoute(router, deps, ROUTES.listWebhookDeliveries, async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.id ?? '';
    const query = parseDeliveryListQuery(ctx.query);
    if (!(await deps.repos.webhooks.find(id, principal))) throw notFound('webhook', id);
    let startingAfter;
    if (query.starting_after) {
      startingAfter = (await deps.repos.webhookDeliveries.findWithAttempts(query.starting_after, principal))?.delivery;
      if (!startingAfter || startingAfter.subscription_id !== id) {
        throw new ApiError('resource_not_found', `No such delivery of this webhook: '${query.starting_after}'.`, { param: 'starting_after' });
      }
    }
    const page = await deps.repos.webhookDeliveries.listPage(id, {
      limit: Number(query.limit ?? 20),
      ...(startingAfter && { startingAfter }),
      ...(query.status && { status: query.status }),
    });
    ctx.body = { object: 'list', data: page.rows.map((r) => presentDelivery(r.delivery, r.attempts)), has_more: page.hasMore };
  });

  defineRoute(router, deps, ROUTES.getWebhookDelivery, async (ctx) => {
    const found = await deps.repos.webhookDeliveries.findWithAttempts(ctx.params.id ?? '', principalOf(ctx));
    if (!found) throw notFound('webhook delivery', ctx.params.id ?? '');
    ctx.body = presentDelivery(found.delivery, found.attempts);
  });

  // A new delivery of the same envelope (same event id) to the same subscription. Its workflow is
  // started here; if Temporal does not take it now, the relay's sweep starts it within a minute.
  defineRoute(router, deps, ROUTES.replayWebhookDelivery, async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.id ?? '';
    const found = await deps.repos.webhookDeliveries.findWithAttempts(id, principal);
    if (!found) throw notFound('webhook delivery', id);
    if (found.delivery.status !== 'succeeded' && found.delivery.status !== 'exhausted') {
      throw new ApiError('delivery_not_replayable', `Delivery '${id}' is ${found.delivery.status}: only a finished delivery (succeeded or exhausted) can be replayed.`);
    }
    const subscription = await deps.repos.webhooks.find(found.delivery.subscription_id, principal);
    if (!subscription) {
      throw new ApiError('delivery_not_replayable', `Delivery '${id}' belongs to a deleted webhook; there is nowhere to send it.`);
    }
    if (subscription.status === 'disabled') {
      throw new ApiError('delivery_not_replayable', `Delivery '${id}' belongs to a disabled webhook: ${enableFirstHint(subscription.id)}.`);
    }
    const webhooks = webhooksOf(deps);
    const replay = await deps.repos.webhookDeliveries.insertReplay(found.delivery);
    try {
      await startWebhookDelivery(deps.temporal, webhooks.relay, replay);
      await deps.repos.webhookDeliveries.markStarted([replay.id]);
    } catch (err) {
      ctx.state.logger.warn('replay recorded, its start left to the relay sweep', { delivery_id: replay.id, error: String(err) });
    }
    ctx.status = 202;
    ctx.body = presentDelivery(replay, []);
  });
}
