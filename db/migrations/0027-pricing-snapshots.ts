import type { Knex } from 'knex';

// A price snapshot on every job (issue 42): the catalog entry's pricing and the plan multiplier a
// generation was admitted at, written in the reservation's own statement (db/ledger.ts,
// db/admit-comparison.ts) and charged at by its capture (activities/credits.ts). Generations from
// before this migration keep `pricing` NULL: the price they were admitted at was never recorded, and
// a backfill from today's catalog could state a price they were not charged at.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.jsonb('pricing');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumn('pricing');
  });
}
