import type { Knex } from 'knex';

// The spending anomaly detector (decisions §4, activities/anomaly-detector.ts):
//
// - `organizations.spend_watch_from`: when an operator last unpaused the organization. The
//   detector's 10-minute window never reaches back before it, so the burst that tripped the
//   detector (and that the operator chose to let stand) cannot trip it again a minute later; new
//   spend after the unpause is judged as usual. NULL: never unpaused, the window is the full 10
//   minutes.
// - `generations_live_spend`: live generations by creation time, carrying what spend is made of, so
//   each minute's sweep finds the organizations with spend in the last 10 minutes by a range scan of
//   the newest index entries (no heap visits while the visibility map is current), whatever the
//   size of the table. The per-organization baseline (7 days) uses the existing
//   (organization_id, environment, created_at) index, and only for organizations above the floor.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.timestamp('spend_watch_from', { useTz: true });
  });
  await knex.raw(`
    CREATE INDEX generations_live_spend ON generations (created_at)
      INCLUDE (organization_id, reserved_credits, refunded_credits)
      WHERE environment = 'live'
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS generations_live_spend');
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('spend_watch_from');
  });
}
