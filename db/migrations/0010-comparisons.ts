import type { Knex } from 'knex';

// Comparisons (spec §2, decisions §5): one prompt sent to 2..12 models of one modality. Each model
// runs as an ordinary generation that points back at its comparison; the comparison row holds what
// the children do not: the shared request, the reservation total, and the terminal verdict, which
// is written once, with its `comparison.completed` event, when the last child is terminal.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('comparisons', (t) => {
    t.text('id').primary();
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('api_key_id').notNullable().references('api_keys.id');
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.text('modality').notNullable();
    // `open` until its verdict: whether an open comparison is queued or running is read from its
    // children (domain/comparison-status.ts), so no child's start has to write here.
    t.text('status').notNullable().checkIn(['open', 'succeeded', 'partial', 'failed']);
    t.text('prompt').notNullable();
    t.jsonb('params_shared').notNullable().defaultTo('{}');
    t.bigInteger('reserved_credits').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.index(['organization_id', 'environment', 'created_at']);
  });
  await knex.raw(`CREATE INDEX comparisons_open ON comparisons (created_at) WHERE status = 'open'`);
  await knex.schema.alterTable('generations', (t) => {
    t.text('comparison_id').references('comparisons.id');
    // The child's place in the comparison's `models` list.
    t.integer('comparison_position');
    t.index(['comparison_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumn('comparison_position');
    t.dropColumn('comparison_id');
  });
  await knex.schema.dropTableIfExists('comparisons');
}
