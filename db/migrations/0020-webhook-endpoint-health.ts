import type { Knex } from 'knex';

// Endpoint health (issue 41): a subscription is `enabled` or `disabled` (every attempt failed for
// WEBHOOK_DISABLE_AFTER, or a 410 Gone), says why, and tracks its last success and since when every
// attempt has failed (set by the first failed attempt after a success, cleared by a success).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.text('status').notNullable().defaultTo('enabled').checkIn(['enabled', 'disabled']);
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.timestamp('failing_since', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropColumns('status', 'disabled_reason', 'disabled_at', 'last_success_at', 'failing_since');
  });
}
