import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organizations', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('plan').notNullable().checkIn(['free', 'pro', 'studio', 'team']);
    t.boolean('enterprise').notNullable().defaultTo(false);
    t.boolean('paused').notNullable().defaultTo(false);
    t.integer('rate_limit_per_minute');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('name').notNullable();
    t.text('email');
    t.text('role').notNullable().checkIn(['owner', 'admin', 'developer', 'viewer']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id']);
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('user_id').notNullable().references('users.id');
    t.text('name').notNullable();
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('prefix').notNullable();
    t.text('secret_hash').notNullable().unique();
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
    t.decimal('monthly_budget_usd', 14, 2);
    t.specificType('ip_allowlist', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['organization_id', 'environment']);
  });

  // One wallet per organization. The checks are the last line of defence: no code path may take a
  // balance below zero, and the database refuses if one tries.
  await knex.schema.createTable('wallets', (t) => {
    t.text('organization_id').primary().references('organizations.id');
    t.bigInteger('available_credits').notNullable().defaultTo(0);
    t.bigInteger('reserved_credits').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('?? >= 0', ['available_credits'], 'wallets_available_non_negative');
    t.check('?? >= 0', ['reserved_credits'], 'wallets_reserved_non_negative');
  });

  // Every credit movement. A wallet's columns always equal the sums of its rows' deltas.
  await knex.schema.createTable('ledger_entries', (t) => {
    t.bigIncrements('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('generation_id');
    t.text('kind').notNullable().checkIn(['topup', 'adjustment', 'reserve', 'capture', 'release', 'refund']);
    t.bigInteger('available_delta').notNullable();
    t.bigInteger('reserved_delta').notNullable();
    t.text('reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'created_at']);
    // A retried activity can never move the same generation's money twice.
    t.unique(['generation_id', 'kind'], { indexName: 'ledger_entries_generation_kind_unique' });
  });

  await knex.schema.createTable('generations', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('api_key_id').notNullable().references('api_keys.id');
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('modality').notNullable();
    t.text('model').notNullable();
    t.text('status').notNullable().checkIn(['queued', 'running', 'succeeded', 'failed', 'canceled']);
    t.text('prompt').notNullable().defaultTo('');
    t.jsonb('params').notNullable().defaultTo('{}');
    t.bigInteger('reserved_credits').notNullable().defaultTo(0);
    t.bigInteger('charged_credits').notNullable().defaultTo(0);
    t.bigInteger('refunded_credits').notNullable().defaultTo(0);
    t.boolean('cache_hit').notNullable().defaultTo(false);
    t.text('error_code');
    t.text('error_message');
    t.jsonb('usage');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.index(['organization_id', 'environment', 'created_at']);
  });

  await knex.schema.createTable('generation_outputs', (t) => {
    t.text('id').primary();
    t.text('generation_id').notNullable().references('generations.id');
    t.integer('position').notNullable();
    t.text('storage_key').notNullable();
    t.text('mime').notNullable();
    t.integer('width');
    t.integer('height');
    t.text('duration_s');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['generation_id', 'position']);
  });

  // Transactional outbox: webhook delivery (a later issue) reads events from here.
  await knex.schema.createTable('events', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('type').notNullable();
    t.text('subject_id').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['type', 'subject_id']);
    t.index(['organization_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['events', 'generation_outputs', 'generations', 'ledger_entries', 'wallets', 'api_keys', 'users', 'organizations']) {
    await knex.schema.dropTableIfExists(table);
  }
}
