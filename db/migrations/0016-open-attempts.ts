import type { Knex } from 'knex';

// `open_attempt`: the provider call a generation is in, `{provider, model, started_at}`, from the
// moment its step begins until the call ends. The step that ends it moves it to `attempts`; when the
// call never ends (the provider budget ran out, the generation was cancelled, a worker died and the
// generation was settled without it), the settlement moves it there in its own statement, so an
// interrupted call still shows in the generation's provenance, once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.jsonb('open_attempt');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumn('open_attempt');
  });
}
