import type { Knex } from 'knex';

// Issue 41, items 5 and 7.
//
// The ordering aid: each generation and comparison counts its status changes (`status_sequence`,
// 1 at creation, +1 in the very UPDATE that changes `status`: the row lock orders concurrent
// writers, so two changes can never read the same count). Every `generation.*` and `comparison.*`
// outbox row gets the count of the status it reports as `data.sequence`, stamped by a trigger on
// `events` in the statement that writes the row, which runs in the transaction that changed the
// status (an event is written after its status change, never before). So every writer of these
// events (the credit activities, the cache, the comparison verdict) carries it without knowing.
//
// The events feed (GET /v1/events) pages an organization's events of one environment newest first
// by (created_at, id): the index below serves it.
export async function up(knex: Knex): Promise<void> {
  for (const table of ['generations', 'comparisons']) {
    await knex.raw(`ALTER TABLE ${table} ADD COLUMN status_sequence integer NOT NULL DEFAULT 1`);
  }
  await knex.raw(`
    CREATE FUNCTION bump_status_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.status_sequence := OLD.status_sequence + 1;
      RETURN NEW;
    END $$`);
  for (const table of ['generations', 'comparisons']) {
    await knex.raw(`
      CREATE TRIGGER ${table}_status_sequence BEFORE UPDATE OF status ON ${table}
        FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION bump_status_sequence()`);
  }
  await knex.raw(`
    CREATE FUNCTION stamp_event_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      seq integer;
    BEGIN
      IF NEW.type LIKE 'generation.%' THEN
        SELECT status_sequence INTO seq FROM generations WHERE id = NEW.subject_id;
      ELSIF NEW.type LIKE 'comparison.%' THEN
        SELECT status_sequence INTO seq FROM comparisons WHERE id = NEW.subject_id;
      END IF;
      IF seq IS NOT NULL THEN
        NEW.data := NEW.data || jsonb_build_object('sequence', seq);
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER events_sequence BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION stamp_event_sequence()`);
  await knex.raw(`CREATE INDEX events_feed ON events (organization_id, environment, created_at DESC, id DESC)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS events_feed');
  await knex.raw('DROP TRIGGER IF EXISTS events_sequence ON events');
  await knex.raw('DROP FUNCTION IF EXISTS stamp_event_sequence()');
  for (const table of ['generations', 'comparisons']) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_status_sequence ON ${table}`);
    await knex.raw(`ALTER TABLE ${table} DROP COLUMN IF EXISTS status_sequence`);
  }
  await knex.raw('DROP FUNCTION IF EXISTS bump_status_sequence()');
}
