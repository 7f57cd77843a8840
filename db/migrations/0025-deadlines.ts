import type { Knex } from 'knex';

// Deadlines (issue 42): the `Cancel-After` a creation request carried, as the moment it sets. The
// workflow keeps the deadline itself (a durable timer, from its input); the column is what the
// Generation and the Comparison show as `deadline_at`. Null: the request set none. Nullable and
// without a default, so adding it rewrites no rows.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE generations ADD COLUMN deadline_at timestamptz');
  await knex.raw('ALTER TABLE comparisons ADD COLUMN deadline_at timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE comparisons DROP COLUMN IF EXISTS deadline_at');
  await knex.raw('ALTER TABLE generations DROP COLUMN IF EXISTS deadline_at');
}
