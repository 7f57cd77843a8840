import type { Knex } from 'knex';
import { OPERATIONAL_EVENT_TYPES, type DeliveryStatus } from '../../domain/webhook-events';
import type { Environment } from '../../domain/generation-status';
import { newId } from '../../lib/ids';
import type { Db } from '../knex';
import { announceExhausted, judgeFailedAttempt } from './webhook-health';
import { passSendGate, takeSendSlot } from './webhook-throttle';

export interface DeliveryRow {
  id: string;
  subscription_id: string;
  organization_id: string;
  environment: Environment;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  replay_of: string | null;
  workflow_started: boolean;
  created_at: Date;
  finished_at: Date | null;
}

/** A delivery as an attempt's record left it. */
type RecordedDelivery = Pick<DeliveryRow, 'id' | 'status' | 'subscription_id' | 'organization_id' | 'environment' | 'event_id' | 'event_type' | 'attempt_count'>;

/** What starting a delivery's workflow needs of it (workflow-starts/webhook-delivery.ts). */
export type DeliveryToStart = Pick<DeliveryRow, 'id' | 'subscription_id' | 'organization_id' | 'environment' | 'event_id' | 'event_type'>;

const TO_START_COLUMNS = ['id', 'subscription_id', 'organization_id', 'environment', 'event_id', 'event_type'] as const;

export interface AttemptRow {
  delivery_id: string;
  number: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
  /** How long the attempt waited for its send slot (max_deliveries_per_second). */
  throttled_ms: number;
  created_at: Date;
}

type Owner = { organizationId: string; environment: Environment };

export interface AttemptContext {
  delivery: DeliveryRow;
  subscription: {
    url: string;
    enabled: boolean;
    secretSealed: string;
    previousSecretSealed: string | null;
    previousSecretExpiresAt: Date | null;
    /** Null: not throttled. */
    maxDeliveriesPerSecond: number | null;
  } | null;
  event: { id: string; type: string; created_at: Date; data: Record<string, unknown> } | null;
}

/** The row of a replay of `of`: a new delivery of the same event to the same subscription (a single replay's, or a bulk recovery's). */
export function replayRowOf(of: DeliveryRow) {
  return {
    id: newId('dlv'),
    subscription_id: of.subscription_id,
    organization_id: of.organization_id,
    environment: of.environment,
    event_id: of.event_id,
    event_type: of.event_type,
    status: 'pending' as const,
    replay_of: of.id,
  };
}

export function createWebhookDeliveriesRepo(knex: Knex) {
  return {
    /**
     * The relay's fan-out: takes up to `limit` events not yet dispatched (skipping those another
     * relay holds), writes one delivery per matching live subscription of the event's organization
     * and environment, and marks the events dispatched, all in one transaction. Returns how many
     * events it took (fewer than `limit`: the outbox is drained). A disabled subscription's delivery
     * is written `exhausted` with no attempt and no workflow (a bulk recovery finds it); an
     * operational event never goes to the subscription it is about.
     */
    async fanOut(limit: number): Promise<{ events: number; deliveries: number }> {
      return knex.transaction(async (trx) => {
        const events: { id: string }[] = await trx('events').select('id').whereNull('dispatched_at').orderBy('created_at').limit(limit).forUpdate().skipLocked();
        if (events.length === 0) return { events: 0, deliveries: 0 };
        const ids = events.map((e) => e.id);
        const pairs: { event_id: string; event_type: string; subscription_id: string; organization_id: string; environment: Environment; subscription_status: string }[] =
          await trx('events as e')
            .join('webhook_subscriptions as s', (j) => j.on('s.organization_id', 'e.organization_id').andOn('s.environment', 'e.environment'))
            .whereIn('e.id', ids)
            .whereNull('s.deleted_at')
            .whereRaw(`(s.events @> ARRAY[e.type] OR s.events @> ARRAY['*'])`)
            .whereRaw(`NOT (e.type = ANY(?::text[]) AND e.data->>'subscription_id' = s.id)`, [[...OPERATIONAL_EVENT_TYPES]])
            .select('e.id as event_id', 'e.type as event_type', 's.id as subscription_id', 'e.organization_id', 'e.environment', 's.status as subscription_status');
        if (pairs.length > 0) {
          await trx('webhook_deliveries')
            .insert(
              pairs.map(({ subscription_status, ...p }) =>
                subscription_status === 'enabled'
                  ? { id: newId('dlv'), status: 'pending', ...p }
                  : { id: newId('dlv'), status: 'exhausted', workflow_started: true, finished_at: trx.fn.now(), ...p },
              ),
            )
            .onConflict(trx.raw('(event_id, subscription_id) WHERE replay_of IS NULL'))
            .ignore();
        }
        await trx('events').whereIn('id', ids).update({ dispatched_at: trx.fn.now() });
        return { events: ids.length, deliveries: pairs.length };
      });
    },

    /** Deliveries whose workflow is not known to be started, oldest first. */
    async listUnstarted(limit: number, trx: Db = knex): Promise<DeliveryToStart[]> {
      return trx('webhook_deliveries').select(TO_START_COLUMNS).where({ workflow_started: false }).orderBy('created_at').limit(limit);
    },

    /**
     * Deliveries not ended whose next step is overdue by `graceMs` (their next attempt, or their
     * first while none was recorded), after the cursor, in a stable order: the sweep asks Temporal
     * whether their workflow still runs (activities/webhooks/relay.ts).
     */
    async listOverdue(
      page: { graceMs: number; limit: number; after?: { dueAt: Date; id: string } },
      trx: Db = knex,
    ): Promise<(DeliveryToStart & { attempt_count: number; next_attempt_at: Date | null; due_at: Date })[]> {
      const query = trx('webhook_deliveries')
        .select(...TO_START_COLUMNS, 'attempt_count', 'next_attempt_at', trx.raw('COALESCE(next_attempt_at, created_at) AS due_at'))
        .whereIn('status', ['pending', 'failed'])
        .where({ workflow_started: true })
        .whereRaw('COALESCE(next_attempt_at, created_at) < now() - make_interval(secs => ?)', [page.graceMs / 1000])
        .orderByRaw('COALESCE(next_attempt_at, created_at), id')
        .limit(page.limit);
      if (page.after) query.whereRaw('(COALESCE(next_attempt_at, created_at), id) > (?, ?)', [page.after.dueAt, page.after.id]);
      return query;
    },

    async markStarted(ids: string[], trx: Db = knex): Promise<void> {
      if (ids.length > 0) await trx('webhook_deliveries').whereIn('id', ids).update({ workflow_started: true });
    },

    async findById(id: string, trx: Db = knex): Promise<DeliveryRow | undefined> {
      return trx('webhook_deliveries').where({ id }).first();
    },

    /** A delivery with its attempts; `owner` limits it to one organization and environment. */
    async findWithAttempts(id: string, owner: Owner, trx: Db = knex): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] } | undefined> {
      const delivery: DeliveryRow | undefined = await trx('webhook_deliveries').where({ id, organization_id: owner.organizationId, environment: owner.environment }).first();
      if (!delivery) return undefined;
      return { delivery, attempts: (await attemptsOf(trx, [id])).get(id) ?? [] };
    },

    async listPage(
      subscriptionId: string,
      page: { limit: number; startingAfter?: DeliveryRow; status?: DeliveryStatus },
      trx: Db = knex,
    ): Promise<{ rows: { delivery: DeliveryRow; attempts: AttemptRow[] }[]; hasMore: boolean }> {
      const query = trx('webhook_deliveries')
        .where({ subscription_id: subscriptionId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (page.status) query.where({ status: page.status });
      if (page.startingAfter) query.whereRaw('(created_at, id) < (?, ?)', [page.startingAfter.created_at, page.startingAfter.id]);
      const found = (await query) as DeliveryRow[];
      const shown = found.slice(0, page.limit);
      const attempts = await attemptsOf(
        trx,
        shown.map((d) => d.id),
      );
      return { rows: shown.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] })), hasMore: found.length > page.limit };
    },

    /** A new delivery of the same event to the same subscription (the envelope, and its id, are the event's). */
    async insertReplay(of: DeliveryRow, trx: Db = knex): Promise<DeliveryRow> {
      const [row] = await trx('webhook_deliveries').insert(replayRowOf(of)).returning('*');
      return row as DeliveryRow;
    },

    /**
     * Everything one attempt needs, in one read: the delivery, its subscription's address and
     * secrets (null once deleted, or if gone), and the event whose envelope it sends.
     */
    async findForAttempt(id: string): Promise<AttemptContext | undefined> {
      const row = await knex('webhook_deliveries as d')
        .leftJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
        .leftJoin('events as e', 'e.id', 'd.event_id')
        .where('d.id', id)
        .first(
          'd.*',
          's.id as s_id',
          's.url as s_url',
          's.deleted_at as s_deleted_at',
          's.status as s_status',
          's.secret_sealed as s_secret_sealed',
          's.previous_secret_sealed as s_previous_secret_sealed',
          's.previous_secret_expires_at as s_previous_secret_expires_at',
          's.max_deliveries_per_second as s_max_deliveries_per_second',
          'e.id as e_id',
          'e.type as e_type',
          'e.created_at as e_created_at',
          'e.data as e_data',
        );
      if (!row) return undefined;
      const {
        s_id,
        s_url,
        s_deleted_at,
        s_status,
        s_secret_sealed,
        s_previous_secret_sealed,
        s_previous_secret_expires_at,
        s_max_deliveries_per_second,
        e_id,
        e_type,
        e_created_at,
        e_data,
        ...delivery
      } = row;
      return {
        delivery: delivery as DeliveryRow,
        subscription:
          s_id && !s_deleted_at
            ? {
                url: s_url,
                enabled: s_status === 'enabled',
                secretSealed: s_secret_sealed,
                previousSecretSealed: s_previous_secret_sealed,
                previousSecretExpiresAt: s_previous_secret_expires_at,
                maxDeliveriesPerSecond: s_max_deliveries_per_second,
              }
            : null,
        event: e_id ? { id: e_id, type: e_type, created_at: e_created_at, data: e_data } : null,
      };
    },

    /** A throttled subscription's next send slot for the delivery (db/repos/webhook-throttle.ts). */
    async takeSendSlot(args: { deliveryId: string; subscriptionId: string }): Promise<number | null> {
      return takeSendSlot(knex, args);
    },

    /** A throttled subscription's gate, as a send goes (db/repos/webhook-throttle.ts). */
    async passSendGate(subscriptionId: string): Promise<number> {
      return passSendGate(knex, subscriptionId);
    },

    /**
     * Records attempt `number` and the delivery's new status in one statement. A retried record of
     * the same attempt changes nothing (the attempt's key is its number), and a delivery already
     * ended (a deleted subscription) keeps its end. In the same transaction, an attempt it records
     * updates its subscription's health (and may disable it: db/repos/webhook-health.ts), and a
     * delivery it ends `exhausted` is announced. Returns the delivery's status afterwards.
     */
    async recordAttempt(args: {
      deliveryId: string;
      number: number;
      result: { statusCode: number | null; latencyMs: number; error: string | null; responseBody: string | null };
      status: Exclude<DeliveryStatus, 'pending'>;
      nextAttemptAt: Date | null;
      /** How long the attempt waited for its send slot. */
      throttledMs: number;
      /** WEBHOOK_DISABLE_AFTER, in ms. */
      disableAfterMs: number;
    }): Promise<{ status: DeliveryStatus | undefined; recorded: boolean; eventCreatedAt: Date | null }> {
      // A success is one statement, as before endpoint health (its webhook's health moves in it): the
      // hot path of a busy endpoint stays one round trip.
      if (args.status === 'succeeded') return (await recordAttemptStatement(knex, args)).written;
      return knex.transaction(async (trx) => {
        const { written, delivery } = await recordAttemptStatement(trx, args);
        if (!delivery) return written;
        if (delivery.status === 'exhausted') await announceExhausted(trx, delivery);
        // The webhook's health is judged under its row's lock, which only a 410 waits for. Any other
        // failure skips the judgment while another transaction holds the row (another failure of the
        // webhook judging the same state, a disabling, a send taking a slot): a burst of failures of
        // one endpoint then never holds one pooled connection per failure waiting in line (seen
        // starving the pool), and a later failure judges what this one skipped. (A 410 racing a
        // disabling or a deletion can deadlock on the delivery's row; Postgres aborts one, and its
        // record is retried.)
        const disabled = await judgeFailedAttempt(trx, { subscriptionId: delivery.subscription_id, statusCode: args.result.statusCode, disableAfterMs: args.disableAfterMs });
        return disabled ? { ...written, status: 'exhausted' as const } : written;
      });
    },

    /**
     * Ends a delivery that will send nothing more: its subscription is gone or disabled (nothing to
     * announce), or its workflow stopped short of a verdict (`announce`: webhook.delivery_exhausted).
     */
    async end(deliveryId: string, opts: { announce: boolean } = { announce: false }): Promise<void> {
      await knex.transaction(async (trx) => {
        const [ended] = (await trx('webhook_deliveries')
          .where({ id: deliveryId })
          .whereIn('status', ['pending', 'failed'])
          .update({ status: 'exhausted', next_attempt_at: null, finished_at: trx.fn.now() })
          .returning('*')) as DeliveryRow[];
        if (ended && opts.announce) await announceExhausted(trx, ended);
      });
    },
  };
}

/**
 * Attempt `number` and the delivery's new status, in one statement (see `recordAttempt`), with the
 * delivery as it now is when the statement recorded it. A success also notes itself on the webhook:
 * `last_success_at` (at most once a second while all is well, so a busy endpoint's successes do not
 * queue on its row's lock) and `failing_since` cleared.
 */
async function recordAttemptStatement(
  trx: Db,
  args: {
    deliveryId: string;
    number: number;
    result: { statusCode: number | null; latencyMs: number; error: string | null; responseBody: string | null };
    status: Exclude<DeliveryStatus, 'pending'>;
    nextAttemptAt: Date | null;
    throttledMs: number;
  },
): Promise<{ written: { status: DeliveryStatus | undefined; recorded: boolean; eventCreatedAt: Date | null }; delivery?: RecordedDelivery }> {
  // The final SELECT sees the delivery as it was before this statement: when the UPDATE did not
  // run (a repeated attempt, an ended delivery), that is its status afterwards too.
  const { rows } = await trx.raw(
    `WITH inserted AS (
           INSERT INTO webhook_attempts (delivery_id, number, status_code, latency_ms, error, response_body, throttled_ms)
           VALUES (:deliveryId, :number, :statusCode, :latencyMs, :error, :responseBody, :throttledMs)
           ON CONFLICT (delivery_id, number) DO NOTHING
           RETURNING number
         ), updated AS (
           UPDATE webhook_deliveries
              SET status = :status, attempt_count = :number, next_attempt_at = :nextAttemptAt,
                  finished_at = CASE WHEN :status = 'failed' THEN finished_at ELSE now() END
            WHERE id = :deliveryId AND status IN ('pending', 'failed') AND EXISTS (SELECT 1 FROM inserted)
            RETURNING id, status, subscription_id, organization_id, environment, event_id, event_type, attempt_count
         ), healthy AS (
           UPDATE webhook_subscriptions
              SET last_success_at = now(), failing_since = NULL
            WHERE id = (SELECT subscription_id FROM updated) AND :status = 'succeeded'
              AND (failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < now() - interval '1 second')
         )
         SELECT COALESCE(u.status, (SELECT status FROM webhook_deliveries WHERE id = :deliveryId)) AS status,
                u.id IS NOT NULL AS recorded,
                u.id, u.subscription_id, u.organization_id, u.environment, u.event_id, u.event_type, u.attempt_count,
                (SELECT e.created_at FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = :deliveryId) AS event_created_at
           FROM (SELECT 1) AS one LEFT JOIN updated u ON true`,
    {
      deliveryId: args.deliveryId,
      number: args.number,
      statusCode: args.result.statusCode,
      latencyMs: Math.round(args.result.latencyMs),
      error: args.result.error,
      responseBody: args.result.responseBody,
      status: args.status,
      nextAttemptAt: args.nextAttemptAt,
      throttledMs: Math.round(args.throttledMs),
    },
  );
  // `recorded`: this statement wrote the attempt and moved the delivery (metrics count it once).
  const row = rows[0] as (Omit<RecordedDelivery, 'status'> & { status: DeliveryStatus | null; recorded: boolean; event_created_at: Date | null }) | undefined;
  const written = { status: row?.status ?? undefined, recorded: row?.recorded === true, eventCreatedAt: row?.event_created_at ?? null };
  if (!row?.recorded || !row.status) return { written };
  const { id, status, subscription_id, organization_id, environment, event_id, event_type, attempt_count } = row;
  return { written, delivery: { id, status, subscription_id, organization_id, environment, event_id, event_type, attempt_count } };
}

async function attemptsOf(trx: Db, deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return byDelivery;
  const rows: AttemptRow[] = await trx('webhook_attempts').whereIn('delivery_id', deliveryIds).orderBy('number');
  for (const row of rows) byDelivery.get(row.delivery_id)?.push(row);
  return byDelivery;
}

export type WebhookDeliveriesRepo = ReturnType<typeof createWebhookDeliveriesRepo>;
