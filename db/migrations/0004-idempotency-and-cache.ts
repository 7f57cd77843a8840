import type { Knex } from 'knex';

// Idempotency keys (decisions §9) and the generation cache (decisions §4).
export async function up(knex: Knex): Promise<void> {
  // One row per (organization, environment, Idempotency-Key). `resource_id` is the id the first
  // request allocated (a generation id): a retry that takes over an abandoned request reuses it, so
  // it can only ever attach to the same Temporal workflow, never start a second job.
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('key').notNullable();
    t.text('endpoint').notNullable();
    t.text('request_hash').notNullable();
    t.text('resource_id').notNullable();
    t.text('state').notNullable().checkIn(['in_progress', 'completed']);
    t.integer('response_status');
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('locked_until', { useTz: true }).notNullable();
    t.primary(['organization_id', 'environment', 'key']);
    t.index(['created_at']);
  });

  // sha256 of (model, prompt, normalized params including the seed); only requests with an
  // explicit seed have one.
  await knex.schema.alterTable('generations', (t) => {
    t.text('cache_key');
  });
  await knex.raw(`
    CREATE INDEX generations_cache_lookup ON generations (organization_id, environment, cache_key, created_at DESC)
     WHERE cache_key IS NOT NULL AND status = 'succeeded'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS generations_cache_lookup');
  await knex.schema.alterTable('generations', (t) => t.dropColumn('cache_key'));
  await knex.schema.dropTableIfExists('idempotency_keys');
}
