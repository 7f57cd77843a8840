import type { Knex } from 'knex';

// `provider_routes_closed_through`: the highest route index whose provider job the generation has
// given up (a fallback to the next route, or its settlement). A job submitted on such a route
// cannot be recorded any more: the activity that submitted it cancels it itself. Closing a route
// and recording a job on it are single statements on the row, so one of them sees the other and
// no submission that races a cancel is left running at the provider.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.integer('provider_routes_closed_through');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumn('provider_routes_closed_through');
  });
}
