import type { Knex } from 'knex';
import type { Environment } from '../../domain/generation-status';
import type { WebhookRecoveryStatus } from '../../domain/webhook-recovery';
import { newId } from '../../lib/ids';
import type { Db } from '../knex';
import { replayRowOf, type DeliveryRow, type DeliveryToStart } from './webhook-deliveries';

// Bulk recoveries (issue 41, item 4; migration 0023): a recovery replays a webhook's exhausted
// deliveries created in [since, until) (workflows/webhook-recovery.ts pages through them). Its
// progress is counted on read from the deliveries it created (they carry its id), so it is always
// what the deliveries say.

export interface RecoveryRow {
  id: string;
  organization_id: string;
  environment: Environment;
  webhook_id: string;
  since: Date;
  until: Date;
  until_defaulted: boolean;
  status: WebhookRecoveryStatus;
  total: number | null;
  created_at: Date;
  completed_at: Date | null;
}

/** A recovery with its progress: deliveries created, and how many of them the receiver accepted. */
export type RecoveryWithProgress = RecoveryRow & { replayed: number; succeeded: number };

type Owner = { organizationId: string; environment: Environment };

export type RecoveryRequestOutcome = { kind: 'created'; recovery: RecoveryRow } | { kind: 'existing'; recovery: RecoveryRow } | { kind: 'no_webhook' } | { kind: 'disabled' };

/**
 * The deliveries a recovery replays: its webhook's exhausted deliveries created in its window
 * (which ends no later than the recovery's creation, so the set is fixed at the start and its own
 * replays are never in it), except those whose event the webhook has since received (a later
 * delivery of it succeeded: a replay, or another recovery's).
 */
function matching(trx: Db, recovery: RecoveryRow) {
  // Originals and replays apart: each has an index on (event_id, subscription_id) of its own (migration 0023).
  const receivedSince = (replays: boolean) =>
    trx('webhook_deliveries as s')
      .select(trx.raw('1'))
      .whereRaw(`s.event_id = d.event_id AND s.subscription_id = d.subscription_id AND s.replay_of IS ${replays ? 'NOT ' : ''}NULL`)
      .where('s.status', 'succeeded');
  return trx('webhook_deliveries as d')
    .where({ 'd.subscription_id': recovery.webhook_id, 'd.status': 'exhausted' })
    .where('d.created_at', '>=', recovery.since)
    .where('d.created_at', '<', recovery.until)
    .whereNotExists(receivedSince(false))
    .whereNotExists(receivedSince(true));
}

export function createWebhookRecoveriesRepo(knex: Knex) {
  return {
    /**
     * The recovery of this window, created unless one exists (idempotency per window, docs/api.md
     * "Bulk recovery"): the same explicit `until`, or, when `until` is omitted, a recovery of the same
     * `since` also without `until` created within `defaultedReuseMs`. The webhook's row is locked
     * meanwhile, so two identical requests at once create one recovery.
     */
    async createOrFind(args: { webhookId: string; owner: Owner; since: Date; until: Date | undefined; now: Date; defaultedReuseMs: number }): Promise<RecoveryRequestOutcome> {
      return knex.transaction(async (trx) => {
        const webhook: { status: string } | undefined = await trx('webhook_subscriptions')
          .where({ id: args.webhookId, organization_id: args.owner.organizationId, environment: args.owner.environment })
          .whereNull('deleted_at')
          // NO KEY: two identical requests still queue here, but the relay's inserts of deliveries
          // referencing the webhook do not.
          .forNoKeyUpdate()
          .first('status');
        if (!webhook) return { kind: 'no_webhook' };
        if (webhook.status !== 'enabled') return { kind: 'disabled' };
        const same = trx('webhook_recoveries').where({ webhook_id: args.webhookId, since: args.since });
        if (args.until) same.where({ until: args.until });
        else same.where({ until_defaulted: true }).where('created_at', '>', new Date(args.now.getTime() - args.defaultedReuseMs));
        const existing: RecoveryRow | undefined = await same.orderBy('created_at', 'desc').first();
        if (existing) return { kind: 'existing', recovery: existing };
        const [created] = (await trx('webhook_recoveries')
          .insert({
            id: newId('whr'),
            organization_id: args.owner.organizationId,
            environment: args.owner.environment,
            webhook_id: args.webhookId,
            since: args.since,
            until: args.until ?? args.now,
            until_defaulted: args.until === undefined,
          })
          .returning('*')) as RecoveryRow[];
        return { kind: 'created', recovery: created! };
      });
    },

    /** A recovery with its progress; `owner` limits it to one organization and environment. */
    async find(id: string, owner: Owner, trx: Db = knex): Promise<RecoveryWithProgress | undefined> {
      const row = await trx('webhook_recoveries as r')
        .where({ 'r.id': id, 'r.organization_id': owner.organizationId, 'r.environment': owner.environment })
        .first(
          'r.*',
          trx.raw('(SELECT count(*)::int FROM webhook_deliveries d WHERE d.recovery_id = r.id) AS replayed'),
          trx.raw(`(SELECT count(*)::int FROM webhook_deliveries d WHERE d.recovery_id = r.id AND d.status = 'succeeded') AS succeeded`),
        );
      return row as RecoveryWithProgress | undefined;
    },

    /** Withdraws a recovery nothing was started for (its workflow could not be started). */
    async forget(id: string): Promise<void> {
      await knex('webhook_recoveries').where({ id, status: 'queued' }).del();
    },

    /**
     * The job's start: `running`, and `total` counted once (a retried or continued run keeps it).
     * Undefined when the recovery does not exist.
     */
    async begin(id: string): Promise<RecoveryRow | undefined> {
      return knex.transaction(async (trx) => {
        const recovery: RecoveryRow | undefined = await trx('webhook_recoveries').where({ id }).forUpdate().first();
        if (!recovery || recovery.status === 'completed') return recovery;
        if (recovery.total !== null) return recovery;
        const [{ total }] = (await matching(trx, recovery).countDistinct({ total: 'd.event_id' })) as [{ total: string | number }];
        const [updated] = (await trx('webhook_recoveries')
          .where({ id })
          .update({ status: 'running', total: Number(total) })
          .returning('*')) as RecoveryRow[];
        return updated;
      });
    },

    /**
     * One page of the recovery: up to `limit` matching deliveries after the delivery `after` (in
     * creation order), each replayed as a new delivery of its event carrying the recovery's id, in
     * one transaction. A retried page inserts nothing twice (unique recovery_id, event_id). Returns
     * the replays of the page whose workflow is not known to be started (a retry's too), the page's
     * last delivery (the next cursor; null when the page was the last), or `stopped` when the
     * webhook was deleted or disabled meanwhile (its deliveries would end at once).
     */
    async replayPage(id: string, page: { after: string | null; limit: number }): Promise<{ stopped: boolean; last: string | null; toStart: DeliveryToStart[] }> {
      return knex.transaction(async (trx) => {
        const recovery: RecoveryRow | undefined = await trx('webhook_recoveries').where({ id }).first();
        if (!recovery) return { stopped: true, last: null, toStart: [] };
        const webhook: { status: string } | undefined = await trx('webhook_subscriptions').where({ id: recovery.webhook_id }).whereNull('deleted_at').forShare().first('status');
        if (!webhook || webhook.status !== 'enabled') return { stopped: true, last: null, toStart: [] };
        const query = matching(trx, recovery)
          .select<DeliveryRow[]>('d.*')
          .orderBy([
            { column: 'd.created_at', order: 'asc' },
            { column: 'd.id', order: 'asc' },
          ])
          .limit(page.limit);
        if (page.after) query.whereRaw('(d.created_at, d.id) > (SELECT created_at, id FROM webhook_deliveries WHERE id = ?)', [page.after]);
        const sources = await query;
        if (sources.length > 0) {
          await trx('webhook_deliveries')
            .insert(sources.map((of) => ({ ...replayRowOf(of), recovery_id: id })))
            .onConflict(trx.raw('(recovery_id, event_id) WHERE recovery_id IS NOT NULL'))
            .ignore();
        }
        const toStart: DeliveryToStart[] = await trx('webhook_deliveries')
          .select('id', 'subscription_id', 'organization_id', 'environment', 'event_id', 'event_type')
          .where({ recovery_id: id, workflow_started: false })
          .whereIn(
            'event_id',
            sources.map((s) => s.event_id),
          );
        const last = sources.length === page.limit ? sources[sources.length - 1]!.id : null;
        return { stopped: false, last, toStart };
      });
    },

    async complete(id: string): Promise<void> {
      await knex('webhook_recoveries').where({ id }).whereNot({ status: 'completed' }).update({ status: 'completed', completed_at: knex.fn.now() });
    },
  };
}

export type WebhookRecoveriesRepo = ReturnType<typeof createWebhookRecoveriesRepo>;
