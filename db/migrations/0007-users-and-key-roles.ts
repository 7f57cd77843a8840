import type { Knex } from 'knex';

// Users managed through the API (decisions §3):
//
// - `api_keys.role` caps a key below its user's role (null: the key has its user's role, whatever
//   that becomes). A key's effective role is the lower of the two, so demoting a user demotes
//   every key of that user at once.
// - `users.deactivated_at` replaces deleting a user: the row stays (keys and history point at it),
//   and authentication refuses the keys of a deactivated user.
// - An email names one active user per organization, compared case-insensitively; once that user
//   is deactivated, the address may be added again as a new user.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('role').checkIn(['owner', 'admin', 'developer', 'viewer'], 'api_keys_role_check');
  });
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('deactivated_at', { useTz: true });
    t.index(['organization_id', 'created_at', 'id'], 'users_organization_created_index');
  });
  await knex.raw(`
    CREATE UNIQUE INDEX users_organization_email_unique ON users (organization_id, lower(email))
    WHERE email IS NOT NULL AND deactivated_at IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS users_organization_email_unique');
  await knex.schema.alterTable('users', (t) => {
    t.dropIndex(['organization_id', 'created_at', 'id'], 'users_organization_created_index');
    t.dropColumn('deactivated_at');
  });
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('role');
  });
}
