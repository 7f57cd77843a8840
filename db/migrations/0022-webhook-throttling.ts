import type { Knex } from 'knex';

// Per-endpoint throttling (issue 41): a subscription may cap its deliveries per second. Sends take
// slots from `next_send_slot_at` (one atomic UPDATE per send, GCRA-style) and pass a gate on
// `send_gate_at` when they go (db/repos/webhook-throttle.ts); an attempt that waited says how long
// in `throttled_ms`.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.double('max_deliveries_per_second');
    t.timestamp('next_send_slot_at', { useTz: true });
    t.timestamp('send_gate_at', { useTz: true });
  });
  await knex.raw(
    `ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_max_deliveries_per_second_check CHECK (max_deliveries_per_second IS NULL OR max_deliveries_per_second > 0)`,
  );
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.integer('throttled_ms').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.dropColumn('throttled_ms');
  });
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropChecks(['webhook_subscriptions_max_deliveries_per_second_check']);
    t.dropColumns('max_deliveries_per_second', 'next_send_slot_at', 'send_gate_at');
  });
}
