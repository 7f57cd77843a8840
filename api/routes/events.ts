import { eventRetentionStart } from '../../domain/event-retention';
import { webhookEnvelope } from '../../domain/webhook-events';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { parseEventListQuery } from '../schemas/events';

// The events feed (issue 41): the envelopes webhooks deliver, read by polling, so a receiver that
// missed deliveries (or cannot take them: behind a firewall) catches up by itself. Reading spends
// nothing; it shows the key's organization and environment only, and nothing older than
// EVENT_RETENTION_DAYS.

export function registerEventRoutes(router: AppRouter, deps: ApiDeps): void {
  const retentionStart = () => eventRetentionStart(deps.clock(), deps.eventRetentionDays);

  defineRoute(router, deps, ROUTES.listEvents, async (ctx) => {
    const owner = principalOf(ctx);
    const query = parseEventListQuery(ctx.query);
    for (const param of ['starting_after', 'ending_before'] as const) {
      const cursor = query[param];
      if (cursor !== undefined && !(await deps.repos.events.isOwnedBy(cursor, owner))) {
        throw new ApiError('resource_not_found', `No such event: '${cursor}'.`, { param });
      }
    }
    const page = await deps.repos.events.listPage(owner, {
      limit: Number(query.limit ?? 20),
      since: retentionStart(),
      ...(query.type && { type: query.type }),
      ...(query.created_after && { createdAfter: new Date(query.created_after) }),
      ...(query.created_before && { createdBefore: new Date(query.created_before) }),
      ...(query.starting_after && { startingAfter: query.starting_after }),
      ...(query.ending_before && { endingBefore: query.ending_before }),
    });
    ctx.body = { object: 'list', data: page.rows.map(webhookEnvelope), has_more: page.hasMore };
  });

  defineRoute(router, deps, ROUTES.getEvent, async (ctx) => {
    const id = ctx.params.id ?? '';
    const event = await deps.repos.events.find(id, principalOf(ctx), retentionStart());
    if (!event) throw notFound('event', id);
    ctx.body = webhookEnvelope(event);
  });
}
