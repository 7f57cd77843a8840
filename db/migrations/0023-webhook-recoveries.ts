import type { Knex } from 'knex';

// Bulk recovery (issue 41, item 4): POST /v1/webhooks/{id}/recover replays every exhausted delivery
// of a webhook created in a window, as a background job (workflows/webhook-recovery.ts). A recovery
// is a row here; the deliveries it creates carry its id, so its progress (`replayed`, `succeeded`)
// is counted from them on read, and the unique (recovery_id, event_id) makes a retried batch insert
// nothing twice (and sends each event once per recovery, however many of its deliveries failed).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_recoveries', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('environment').notNullable();
    t.text('webhook_id').notNullable().references('webhook_subscriptions.id');
    t.timestamp('since', { useTz: true }).notNullable();
    t.timestamp('until', { useTz: true }).notNullable();
    /** `until` was omitted, so it is the creation time: the idempotency of such a request (docs/api.md). */
    t.boolean('until_defaulted').notNullable();
    t.text('status').notNullable().defaultTo('queued').checkIn(['queued', 'running', 'completed']);
    t.integer('total');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
  });
  await knex.raw(`CREATE UNIQUE INDEX webhook_recoveries_window ON webhook_recoveries (webhook_id, since, until)`);
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.text('recovery_id').references('webhook_recoveries.id');
  });
  await knex.raw(`CREATE UNIQUE INDEX webhook_deliveries_recovery ON webhook_deliveries (recovery_id, event_id) WHERE recovery_id IS NOT NULL`);
  // The recovery's pages: a webhook's exhausted deliveries in creation order.
  await knex.raw(`CREATE INDEX webhook_deliveries_exhausted ON webhook_deliveries (subscription_id, created_at, id) WHERE status = 'exhausted'`);
  // "Its event was received since": an original delivery is found by webhook_deliveries_fan_out, a
  // replay (rare) by this one.
  await knex.raw(`CREATE INDEX webhook_deliveries_replays ON webhook_deliveries (event_id, subscription_id) WHERE replay_of IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_replays');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_exhausted');
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_recovery');
  await knex.schema.alterTable('webhook_deliveries', (t) => t.dropColumn('recovery_id'));
  await knex.schema.dropTableIfExists('webhook_recoveries');
}
