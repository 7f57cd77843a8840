import type { Knex } from 'knex';

// The relay's sweep looks every minute for deliveries not ended whose next step is overdue, to
// restart those whose workflow has closed (activities/webhooks/relay.ts): this index holds only
// the open deliveries, in the order the sweep pages through them.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX webhook_deliveries_open_due ON webhook_deliveries ((COALESCE(next_attempt_at, created_at)), id)
      WHERE status IN ('pending', 'failed') AND workflow_started`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_open_due');
}
