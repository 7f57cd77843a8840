import type { Knex } from 'knex';

// The retention sweep (issue 41, activities/event-retention.ts) deletes events older than
// EVENT_RETENTION_DAYS, oldest first, with every delivery of each (replays included) and their
// attempts. It finds the oldest events by `created_at` across organizations, and each event's
// deliveries by `event_id`: the existing indexes serve neither (events_feed starts with the
// organization; webhook_deliveries_fan_out holds first deliveries only, not replays). Attempts are
// found by their primary key's first column, delivery_id. Deleting a delivery makes Postgres check
// that no replay references it (`replay_of`): without an index each check reads the whole table
// (a run over 100,000 deliveries did not end in 10 minutes; with it, 12.8 s); replays are few, so the index is partial.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX events_created_at ON events (created_at)');
  await knex.raw('CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)');
  await knex.raw('CREATE INDEX webhook_deliveries_replay_of ON webhook_deliveries (replay_of) WHERE replay_of IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_replay_of');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_event');
  await knex.raw('DROP INDEX IF EXISTS events_created_at');
}
