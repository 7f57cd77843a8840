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

/** Whose events: an organization's, in one environment (decisions §3: test and live never mix). */
export interface EventOwner {
  organizationId: string;
  environment: Environment;
}

export interface EventPage {
  limit: number;
  /** The retention window's start: older events are not shown. */
  since: Date;
  type?: string;
  /** Only events whose envelope shows a later created_at (envelopes show milliseconds). */
  createdAfter?: Date;
  /** Only events whose envelope shows an earlier created_at. */
  createdBefore?: Date;
  /** An event id: the page holds the events just older than it. */
  startingAfter?: string;
  /** An event id: the page holds the events just newer than it. */
  endingBefore?: string;
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

    /** One event of an owner (organization and environment) created at or after `since`, or undefined. */
    async find(id: string, owner: EventOwner, since: Date, trx: Db = knex): Promise<EventRow | undefined> {
      return trx('events').where({ id, organization_id: owner.organizationId, environment: owner.environment }).where('created_at', '>=', since).first();
    },

    /** Whether `id` is an event of this owner, however old: a page cursor may outlive the retention window. */
    async isOwnedBy(id: string, owner: EventOwner, trx: Db = knex): Promise<boolean> {
      return (await trx('events').where({ id, organization_id: owner.organizationId, environment: owner.environment }).first('id')) !== undefined;
    },

    /**
     * One page of an owner's events created at or after `since`, newest first by (created_at, id).
     * `startingAfter` pages towards older events, `endingBefore` towards newer ones (the page
     * closest to the cursor, still newest first). The cursor is compared as the row holds it
     * (microseconds), not as JavaScript would read it back (milliseconds), so no event is skipped
     * or repeated between pages.
     */
    async listPage(owner: EventOwner, page: EventPage, trx: Db = knex): Promise<{ rows: EventRow[]; hasMore: boolean }> {
      const backwards = page.endingBefore !== undefined;
      const order = backwards ? 'asc' : 'desc';
      const query = trx('events')
        .where({ organization_id: owner.organizationId, environment: owner.environment })
        .where('created_at', '>=', page.since)
        .orderBy([
          { column: 'created_at', order },
          { column: 'id', order },
        ])
        .limit(page.limit + 1);
      if (page.type) query.where('type', page.type);
      // Envelopes show created_at to the millisecond, rows hold microseconds: "after X" means after
      // every event shown as X, so an event's own created_at passed back never returns that event.
      if (page.createdAfter) query.where('created_at', '>=', new Date(page.createdAfter.getTime() + 1));
      if (page.createdBefore) query.where('created_at', '<', page.createdBefore);
      if (page.startingAfter !== undefined) query.whereRaw('(created_at, id) < (SELECT created_at, id FROM events WHERE id = ?)', [page.startingAfter]);
      if (page.endingBefore !== undefined) query.whereRaw('(created_at, id) > (SELECT created_at, id FROM events WHERE id = ?)', [page.endingBefore]);
      const found = (await query) as EventRow[];
      const rows = found.slice(0, page.limit);
      return { rows: backwards ? rows.reverse() : rows, hasMore: found.length > page.limit };
    },

    async listForSubject(subjectId: string, trx: Db = knex): Promise<EventRow[]> {
      return trx('events').where({ subject_id: subjectId }).orderBy('created_at');
    },
  };
}

export type EventsRepo = ReturnType<typeof createEventsRepo>;
