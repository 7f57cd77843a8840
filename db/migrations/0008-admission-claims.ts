import type { Knex } from 'knex';

// Who decided a generation's admission, per admission deadline: the worker that admitted (or
// refused) it, or the API that gave up waiting and answered 503. Both insert the same key, so
// exactly one of them wins: a reservation can never commit after the API has promised "nothing
// was charged". A retry of the same request gets a new deadline and so a new key.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admission_claims', (t) => {
    t.text('generation_id').notNullable();
    // Epoch milliseconds, exactly as the workflow input carries it.
    t.bigInteger('admit_by').notNullable();
    t.text('claimed_by').notNullable().checkIn(['worker', 'api']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['generation_id', 'admit_by']);
    t.index(['admit_by']);
  });
  // The reconciler's scan: only the generations still open, which are few.
  await knex.raw(`CREATE INDEX generations_open ON generations (created_at) WHERE status IN ('queued', 'running')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS generations_open');
  await knex.schema.dropTableIfExists('admission_claims');
}
