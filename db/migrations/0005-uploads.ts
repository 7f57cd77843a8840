import type { Knex } from 'knex';

// Uploads (decisions §6): one row per POST /v1/uploads. The file itself lives in storage under
// `storage_key`; the row records who asked for it and what the signed PUT allows.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('uploads', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('api_key_id').notNullable().references('api_keys.id');
    t.text('storage_key').notNullable().unique();
    t.text('filename').notNullable();
    t.text('content_type').notNullable();
    t.integer('size_bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'environment', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('uploads');
}
