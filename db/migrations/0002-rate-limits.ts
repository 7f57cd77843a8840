import type { Knex } from 'knex';

// Rate-limit state shared by every API process: one GCRA "theoretical arrival time" per key.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_state', (t) => {
    t.text('api_key_id').primary().references('api_keys.id').onDelete('CASCADE');
    t.double('tat').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_state');
}
