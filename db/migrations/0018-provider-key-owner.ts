import type { Knex } from 'knex';

// `provider_key_owner`: whose key submitted the provider job recorded on the row, `own` (the
// organization's, BYOK) or `platform`, from the route the job ran on. Whatever cancels the job
// later (the reconciler, after its workflow is gone) cancels it with that key: a job belongs to the
// account that submitted it. NULL on rows from before it, and on routes that need no key.
//
// `generations_open_page`: the reconciler walks every open generation in pages, (created_at, id)
// after the previous page's last row.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.text('provider_key_owner');
  });
  await knex.raw(`alter table generations add constraint generations_provider_key_owner_check check (provider_key_owner in ('own', 'platform'))`);
  await knex.raw(`CREATE INDEX generations_open_page ON generations (created_at, id) WHERE status IN ('queued', 'running')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX generations_open_page');
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumn('provider_key_owner');
  });
}
