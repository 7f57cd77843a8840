import type { Knex } from 'knex';

// Webhooks (spec §2, §6; decisions §8): subscriptions, one delivery per (event, subscription) plus
// any replays, and every attempt of each. Events learn whether they have been fanned out yet
// (`dispatched_at`), and announce themselves on commit (`events_committed`), so the relay reacts at
// once and a sweep finds whatever a dead process never got to.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('url').notNullable();
    // Event types, or ['*'] for all.
    t.specificType('events', 'text[]').notNullable();
    t.text('description');
    // AES-256-GCM under WEBHOOK_SECRETS_KEY (lib/secret-box.ts): a secret must be recoverable to sign.
    t.text('secret_sealed').notNullable();
    // After a rotation the old secret signs too, until it expires (decisions §8).
    t.text('previous_secret_sealed');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deleted_at', { useTz: true });
    t.index(['organization_id', 'environment', 'created_at']);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary();
    t.text('subscription_id').notNullable().references('webhook_subscriptions.id');
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('event_id').notNullable().references('events.id');
    t.text('event_type').notNullable();
    t.text('status').notNullable().checkIn(['pending', 'succeeded', 'failed', 'exhausted']);
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    // The delivery this one replays; null for the fan-out's own delivery.
    t.text('replay_of').references('webhook_deliveries.id');
    // Set once its workflow is known to be started, so the relay starts each exactly once.
    t.boolean('workflow_started').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.index(['subscription_id', 'created_at']);
  });
  // Exactly one fan-out delivery per event and subscription, however often the relay runs.
  await knex.raw(`CREATE UNIQUE INDEX webhook_deliveries_fan_out ON webhook_deliveries (event_id, subscription_id) WHERE replay_of IS NULL`);
  await knex.raw(`CREATE INDEX webhook_deliveries_unstarted ON webhook_deliveries (created_at) WHERE NOT workflow_started`);

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.text('delivery_id').notNullable().references('webhook_deliveries.id');
    t.integer('number').notNullable();
    t.integer('status_code');
    t.integer('latency_ms').notNullable();
    t.text('error');
    // Up to 64 KiB of the receiver's answer, for the delivery log.
    t.text('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['delivery_id', 'number']);
  });

  await knex.schema.alterTable('events', (t) => {
    t.timestamp('dispatched_at', { useTz: true });
  });
  // Events already in the outbox predate webhooks: nothing was subscribed to them.
  await knex('events').update({ dispatched_at: knex.fn.now() });
  await knex.raw(`CREATE INDEX events_undispatched ON events (created_at) WHERE dispatched_at IS NULL`);
  await knex.raw(`
    CREATE FUNCTION notify_events_committed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('events_committed', '');
      RETURN NULL;
    END $$`);
  // Per statement: one notification per committing statement is enough to wake the relay, and
  // Postgres folds identical notifications of one transaction into one.
  await knex.raw(`CREATE TRIGGER events_committed AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION notify_events_committed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS events_committed ON events');
  await knex.raw('DROP FUNCTION IF EXISTS notify_events_committed()');
  await knex.raw('DROP INDEX IF EXISTS events_undispatched');
  await knex.schema.alterTable('events', (t) => t.dropColumn('dispatched_at'));
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_subscriptions');
}
