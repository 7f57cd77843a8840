import type { Knex } from 'knex';

// Rate-limit state shared by every API process: one GCRA "theoretical arrival time" per key.
// UNLOGGED: no WAL, so an admission never waits for a disk flush; after a Postgres crash the table
// comes back empty, which only gives every key a full bucket.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE UNLOGGED TABLE rate_limit_state (
      api_key_id text PRIMARY KEY REFERENCES api_keys (id) ON DELETE CASCADE,
      tat double precision NOT NULL
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_state');
}
