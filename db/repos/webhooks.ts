import type { Knex } from 'knex';
import type { Environment } from '../../domain/generation-status';
import type { WebhookSubscriptionStatus } from '../../domain/webhook-endpoint-health';
import type { Db } from '../knex';

export interface WebhookRow {
  id: string;
  organization_id: string;
  environment: Environment;
  url: string;
  events: string[];
  description: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  deleted_at: Date | null;
  status: WebhookSubscriptionStatus;
  disabled_reason: string | null;
  disabled_at: Date | null;
  last_success_at: Date | null;
  failing_since: Date | null;
  /** Null: unlimited (db/repos/webhook-throttle.ts). */
  max_deliveries_per_second: number | null;
  next_send_slot_at: Date | null;
  send_gate_at: Date | null;
}

type Owner = { organizationId: string; environment: Environment };

/** A subscription as POST /v1/webhooks creates it: the health, throttle and rotation columns take their defaults. */
type NewWebhook = Omit<
  WebhookRow,
  | 'created_at'
  | 'deleted_at'
  | 'previous_secret_sealed'
  | 'previous_secret_expires_at'
  | 'status'
  | 'disabled_reason'
  | 'disabled_at'
  | 'last_success_at'
  | 'failing_since'
  | 'max_deliveries_per_second'
  | 'next_send_slot_at'
  | 'send_gate_at'
> & { max_deliveries_per_second?: number | null };

export function createWebhooksRepo(knex: Knex) {
  const owned = (trx: Db, owner: Owner) => trx('webhook_subscriptions').where({ organization_id: owner.organizationId, environment: owner.environment }).whereNull('deleted_at');

  return {
    /**
     * Inserts the subscription unless its owner already has `limit` live ones in its environment
     * (undefined then). Creations of one owner are serialized by a transaction-scoped advisory lock,
     * so concurrent ones never pass the limit together.
     */
    async insertWithinLimit(row: NewWebhook, limit: number): Promise<WebhookRow | undefined> {
      return knex.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`webhooks:${row.organization_id}:${row.environment}`]);
        const [live] = await owned(trx, { organizationId: row.organization_id, environment: row.environment }).count<{ count: string }[]>('* as count');
        if (Number(live?.count) >= limit) return undefined;
        const [inserted] = await trx('webhook_subscriptions').insert(row).returning('*');
        return inserted as WebhookRow;
      });
    },

    /** A live subscription of the owner; deleted ones are gone for their owner. */
    async find(id: string, owner: Owner, trx: Db = knex): Promise<WebhookRow | undefined> {
      return owned(trx, owner).where({ id }).first();
    },

    /** Any subscription, deleted or not: deliveries read it to sign, or to learn that it is gone. */
    async findAny(id: string, trx: Db = knex): Promise<WebhookRow | undefined> {
      return trx('webhook_subscriptions').where({ id }).first();
    },

    async listPage(owner: Owner, page: { limit: number; startingAfter?: WebhookRow }, trx: Db = knex): Promise<{ rows: WebhookRow[]; hasMore: boolean }> {
      const query = owned(trx, owner)
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (page.startingAfter) query.whereRaw('(created_at, id) < (?, ?)', [page.startingAfter.created_at, page.startingAfter.id]);
      const rows = (await query) as WebhookRow[];
      return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
    },

    /**
     * Deletes the subscription and ends its deliveries still waiting for a retry, in one transaction:
     * from the commit on, no attempt of it is sent. Returns the ids of the deliveries it ended.
     */
    async softDelete(id: string, owner: Owner): Promise<{ deleted: boolean; endedDeliveries: string[] }> {
      return knex.transaction(async (trx) => {
        const deleted = await owned(trx, owner).where({ id }).update({ deleted_at: trx.fn.now() });
        if (deleted === 0) return { deleted: false, endedDeliveries: [] };
        const ended: { id: string }[] = await trx('webhook_deliveries')
          .where({ subscription_id: id })
          .whereIn('status', ['pending', 'failed'])
          .update({ status: 'exhausted', next_attempt_at: null, finished_at: trx.fn.now() })
          .returning('id');
        return { deleted: true, endedDeliveries: ended.map((r) => r.id) };
      });
    },

    /**
     * Enables the subscription again (PATCH {"status": "enabled"}): deliveries of events from now on
     * are sent, and its failures count from scratch. Enabling an enabled subscription changes nothing.
     */
    async enable(id: string, owner: Owner): Promise<WebhookRow | undefined> {
      const [row] = await owned(knex, owner)
        .where({ id })
        .update({
          status: 'enabled',
          disabled_reason: null,
          disabled_at: null,
          failing_since: knex.raw(`CASE WHEN status = 'disabled' THEN NULL ELSE failing_since END`),
        })
        .returning('*');
      return row as WebhookRow | undefined;
    },

    /**
     * Sets the delivery rate (null: unlimited). Slots taken from now on are spaced at the new rate;
     * deliveries already waiting keep the slot they hold (db/repos/webhook-throttle.ts).
     */
    async setMaxDeliveriesPerSecond(id: string, owner: Owner, rate: number | null): Promise<WebhookRow | undefined> {
      const [row] = await owned(knex, owner).where({ id }).update({ max_deliveries_per_second: rate }).returning('*');
      return row as WebhookRow | undefined;
    },

    /** The new secret signs from now on; the old one too until `previousExpiresAt`. */
    async rotateSecret(id: string, owner: Owner, newSealed: string, previousExpiresAt: Date): Promise<WebhookRow | undefined> {
      const [row] = await owned(knex, owner)
        .where({ id })
        .update({
          previous_secret_sealed: knex.ref('secret_sealed'),
          previous_secret_expires_at: previousExpiresAt,
          secret_sealed: newSealed,
        })
        .returning('*');
      return row as WebhookRow | undefined;
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
