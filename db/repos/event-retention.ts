import type { Knex } from 'knex';

// The deletion behind EVENT_RETENTION_DAYS: old events go with their webhook deliveries (replays
// included) and those deliveries' attempts, which reference them. One call is one batch in one
// statement (so one short transaction): its rows are locked with SKIP LOCKED, so two sweeps running
// at once split the work instead of waiting on each other, and a row another transaction holds
// (a replay being inserted for it) is left to a later run.

export interface ExpiredEventsBatch {
  /** Events created before this are expired. */
  before: Date;
  /** `usage.budget_threshold` events of this budget month or later are kept however old (domain/event-retention.ts). */
  budgetMonthsFrom: Date;
  /** Events deleted at most. */
  limit: number;
}

export interface DeletedEventRows {
  events: number;
  deliveries: number;
  attempts: number;
  /** Completed bulk recoveries whose replays are all gone. */
  recoveries: number;
}

export async function deleteExpiredEvents(knex: Knex, batch: ExpiredEventsBatch): Promise<DeletedEventRows> {
  // Never deleted, however old:
  // - an event the relay has not fanned out yet (its deliveries do not exist yet);
  // - an event with a delivery still open (pending or failed: its workflow will attempt it again,
  //   and its delivery log must stay readable);
  // - a budget threshold event whose month may still emit (its row is the once-per-month guard).
  // A completed bulk recovery goes once the deliveries it replayed are gone: its counts are read
  // from them (db/repos/webhook-recoveries.ts), so it would otherwise show ever smaller figures.
  // It is older than the cut-off when they are, as every event it replayed is older than it.
  // The deletes run in one statement: the foreign keys are checked at its end, once the attempts,
  // deliveries, events and recoveries it removes are all gone.
  const result = await knex.raw(
    `WITH doomed AS (
       SELECT e.id FROM events e
        WHERE e.created_at < :before
          AND e.dispatched_at IS NOT NULL
          AND NOT (e.type = 'usage.budget_threshold'
                   AND coalesce(to_date(e.data->>'period', 'YYYY-MM'), date_trunc('month', e.created_at AT TIME ZONE 'UTC')::date) >= :budgetMonthsFrom::date)
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('pending', 'failed'))
        ORDER BY e.created_at
        LIMIT :limit
        FOR UPDATE OF e SKIP LOCKED
     ), deliveries AS (
       SELECT d.id FROM webhook_deliveries d WHERE d.event_id IN (SELECT id FROM doomed)
     ), gone_attempts AS (
       DELETE FROM webhook_attempts a WHERE a.delivery_id IN (SELECT id FROM deliveries) RETURNING 1
     ), gone_deliveries AS (
       DELETE FROM webhook_deliveries d WHERE d.id IN (SELECT id FROM deliveries) RETURNING 1
     ), gone_events AS (
       DELETE FROM events e WHERE e.id IN (SELECT id FROM doomed) RETURNING 1
     ), gone_recoveries AS (
       DELETE FROM webhook_recoveries r
        WHERE r.created_at < :before AND r.status = 'completed'
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.recovery_id = r.id AND d.id NOT IN (SELECT id FROM deliveries))
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM gone_events)::int AS events,
            (SELECT count(*) FROM gone_deliveries)::int AS deliveries,
            (SELECT count(*) FROM gone_attempts)::int AS attempts,
            (SELECT count(*) FROM gone_recoveries)::int AS recoveries`,
    { before: batch.before, budgetMonthsFrom: batch.budgetMonthsFrom.toISOString().slice(0, 10), limit: batch.limit },
  );
  const row = (result as { rows: DeletedEventRows[] }).rows[0]!;
  return { events: row.events, deliveries: row.deliveries, attempts: row.attempts, recoveries: row.recoveries };
}
