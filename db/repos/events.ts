import type { Knex } from 'knex';
import type { Environment } from '../../domain/generation-status';
import type { Db } from '../knex';

export interface EventRow {
  id: string;
  organization_id: string;
  environment: Environment;
  type: string;
  subject_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

export function createEventsRepo(knex: Knex) {
  return {
    /** Appends to the outbox once per (type, subject); a retried emit is a no-op. */
    async append(event: Omit<EventRow, 'created_at'>, trx: Db = knex): Promise<void> {
      await this.appendStatement(event, trx);
    },

    /**
     * `append`'s statement, not yet sent: a settlement sends it in the same round trip as its
     * ledger rows (db/ledger.ts, settleLockedReservation).
     */
    appendStatement(event: Omit<EventRow, 'created_at'>, trx: Db = knex): Knex.QueryBuilder {
      return trx('events')
        .insert({ ...event, data: JSON.stringify(event.data) })
        .onConflict(['type', 'subject_id'])
        .ignore();
    },

    async listForSubject(subjectId: string, trx: Db = knex): Promise<EventRow[]> {
      return trx('events').where({ subject_id: subjectId }).orderBy('created_at');
    },
  };
}

export type EventsRepo = ReturnType<typeof createEventsRepo>;
