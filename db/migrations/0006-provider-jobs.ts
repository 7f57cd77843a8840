import type { Knex } from 'knex';

// What the async modalities and chat need on a generation: the provider's own job id (for
// operators, and for a cancel to reach the provider) and a text result (chat's answer, a transcript).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.text('provider_job_id');
    t.text('output_text');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumn('provider_job_id');
    t.dropColumn('output_text');
  });
}
