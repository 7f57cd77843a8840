import type { Knex } from 'knex';

// Output retention (issue 42 item 3). When a generation's output files expire is decided by the API
// when the request arrives (its `retention`, else the organization's default) and written to
// `output_expiries` before the job starts: its own table, keyed by the generation id and without a
// foreign key, so that the admission statements that insert generations (db/ledger.ts,
// db/admit-comparison.ts) stay as they are, and a row whose admission was refused is harmless.
// No row (every generation made before this migration) means kept until deleted: an upgrade never
// deletes files nobody asked to expire. `expires_at` NULL is `forever` (Enterprise). `swept` is set
// once the retention sweep has removed everything of a finished job (or found it never ran): the
// sweep's index holds only expiries still to handle, so its work does not grow with history.
//
// `generation_outputs.deleted_at` marks an output whose file the retention sweep or
// DELETE /v1/generations/{id}/outputs removed: the row (and the generation's money) stays. Files
// are shared by cache hits (db/repos/generations.ts insertCacheHit), so a file URL is answered by
// every output row with its storage key (the index), and a file is removed only once none is live.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE organizations ADD COLUMN retention_days integer CHECK (retention_days BETWEEN 1 AND 365)');
  await knex.raw(`CREATE TABLE output_expiries (
    generation_id text PRIMARY KEY,
    expires_at timestamptz,
    swept boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
  )`);
  await knex.raw('CREATE INDEX output_expiries_due ON output_expiries (expires_at) WHERE expires_at IS NOT NULL AND NOT swept');
  await knex.raw('ALTER TABLE generation_outputs ADD COLUMN deleted_at timestamptz');
  await knex.raw('CREATE INDEX generation_outputs_storage_key ON generation_outputs (storage_key)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS generation_outputs_storage_key');
  await knex.raw('ALTER TABLE generation_outputs DROP COLUMN IF EXISTS deleted_at');
  await knex.raw('DROP TABLE IF EXISTS output_expiries');
  await knex.raw('ALTER TABLE organizations DROP COLUMN IF EXISTS retention_days');
}
