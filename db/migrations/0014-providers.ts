import type { Knex } from 'knex';

// Real providers (decisions §7):
//
// - Provenance on `generations`: `provider` and `provider_model` (what served it), `attempts` (one
//   entry per provider call that ended: `{provider, model, outcome, error_code?, duration_ms}`,
//   appended by the activity that made it), and for a failed generation `error_source`
//   (`provider` | `gateway`) and `retryable`. `provider_job_submitted_at` times a queued job's
//   attempt from its submission to its verdict, across worker restarts.
// - `provider_credentials`: the provider keys an Enterprise organization brings (BYOK), sealed
//   with PROVIDER_SECRETS_KEY, never returned. A change notifies `principal_changes`, as keys do:
//   the principal carries which providers an organization has its own keys for.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.text('provider');
    t.text('provider_model');
    t.jsonb('attempts').notNullable().defaultTo(knex.raw(`'[]'::jsonb`));
    t.text('error_source');
    t.boolean('retryable');
    t.timestamp('provider_job_submitted_at', { useTz: true });
  });
  await knex.schema.createTable('provider_credentials', (t) => {
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('sealed_api_key').notNullable();
    t.text('base_url');
    /** The last four characters, to tell keys apart in listings. */
    t.text('key_hint').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'provider']);
  });
  await knex.raw(`CREATE TRIGGER provider_credentials_principal_change AFTER INSERT OR UPDATE OR DELETE ON provider_credentials
    FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_change()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('provider_credentials');
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumns('provider', 'provider_model', 'attempts', 'error_source', 'retryable', 'provider_job_submitted_at');
  });
}
