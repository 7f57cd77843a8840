import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import { deleteExpiredEvents, type DeletedEventRows } from '../db/repos/event-retention';
import { budgetThresholdKeptFrom, DEFAULT_EVENT_RETENTION_DAYS, eventRetentionStart } from '../domain/event-retention';
import { metrics } from '../observability/metrics';

// The retention sweep's step (workflows/event-retention.ts, every minute from a Temporal Schedule):
// one bounded batch of events older than EVENT_RETENTION_DAYS deleted with their deliveries and
// attempts (db/repos/event-retention.ts says which old rows are kept, and why). Each batch is its
// own transaction, so a sweep interrupted anywhere has deleted whole batches only, and the next run
// carries on where it stopped.

/** Events per batch: one short transaction, however many deliveries and attempts they carry. */
const EVENT_RETENTION_BATCH = 1000;

export interface EventRetentionDeps {
  knex: Knex;
  /** EVENT_RETENTION_DAYS (DEFAULT_EVENT_RETENTION_DAYS without it). */
  eventRetentionDays?: number;
  /** The sweep's "now"; tests move it forward to age the events they made. */
  clock?: () => Date;
}

export function createEventRetentionActivities(deps: EventRetentionDeps) {
  const days = deps.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS;
  const clock = deps.clock ?? (() => new Date());
  return {
    /** Deletes one batch of expired events with their deliveries and attempts; the counts deleted. */
    async deleteExpiredEventBatch(): Promise<DeletedEventRows> {
      const now = clock();
      const deleted = await deleteExpiredEvents(deps.knex, {
        before: eventRetentionStart(now, days),
        budgetMonthsFrom: budgetThresholdKeptFrom(now),
        limit: EVENT_RETENTION_BATCH,
      });
      if (deleted.events > 0 || deleted.recoveries > 0) {
        metrics.eventRowsDeleted.inc({ table: 'webhook_recoveries' }, deleted.recoveries);
        metrics.eventRowsDeleted.inc({ table: 'events' }, deleted.events);
        metrics.eventRowsDeleted.inc({ table: 'webhook_deliveries' }, deleted.deliveries);
        metrics.eventRowsDeleted.inc({ table: 'webhook_attempts' }, deleted.attempts);
        Context.current().log.info('deleted expired events', { ...deleted, retention_days: days });
      }
      return deleted;
    },
  };
}
