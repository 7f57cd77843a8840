import type { Knex } from 'knex';
import type { Role } from '../../domain/access';
import type { Db } from '../knex';

export type { Role };

export interface UserRow {
  id: string;
  organization_id: string;
  name: string;
  email: string | null;
  role: Role;
  created_at: Date;
  /** Set once by DELETE /v1/users/{id}; the user's keys stop authenticating from then on. */
  deactivated_at: Date | null;
}

/** The unique index on an organization's active emails (migration 0007). */
export const USER_EMAIL_UNIQUE_INDEX = 'users_organization_email_unique';

export function createUsersRepo(knex: Knex) {
  return {
    async create(user: { id: string; organization_id: string; name: string; email?: string | null; role: Role }, trx: Db = knex): Promise<UserRow> {
      const [row] = await trx('users').insert(user).returning('*');
      return row as UserRow;
    },

    /** A user of this organization, active or not (another organization's user is not found). */
    async findInOrganization(id: string, organizationId: string, trx: Db = knex): Promise<UserRow | undefined> {
      return trx('users').where({ id, organization_id: organizationId }).first();
    },

    /** Newest first, deactivated users included; `startingAfter` is the last user of the previous page. */
    async listPage(organizationId: string, page: { limit: number; startingAfter?: UserRow }, trx: Db = knex): Promise<{ rows: UserRow[]; hasMore: boolean }> {
      const query = trx('users')
        .where({ organization_id: organizationId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (page.startingAfter) {
        query.whereRaw('(created_at, id) < (?, ?)', [page.startingAfter.created_at, page.startingAfter.id]);
      }
      const rows: UserRow[] = await query;
      return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
    },

    /**
     * Serializes changes to an organization's users until `trx` ends. "The last owner stays" spans
     * rows: two owners demoting each other at once would each still see the other as owner under
     * READ COMMITTED, so every role change and deactivation takes this lock before it counts owners.
     */
    async lockOrganizationUsers(organizationId: string, trx: Knex.Transaction): Promise<void> {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`users:${organizationId}`]);
    },

    async countActiveOwners(organizationId: string, trx: Db = knex): Promise<number> {
      const row = await trx('users').where({ organization_id: organizationId, role: 'owner' }).whereNull('deactivated_at').count<{ count: string }>('* as count').first();
      return Number(row?.count ?? 0);
    },

    async update(id: string, changes: Partial<Pick<UserRow, 'role' | 'name'>>, trx: Db = knex): Promise<UserRow> {
      const [row] = await trx('users').where({ id }).update(changes).returning('*');
      return row as UserRow;
    },

    /** Deactivates once; deactivating again keeps the first time. */
    async deactivate(id: string, trx: Db = knex): Promise<UserRow> {
      const [row] = await trx('users')
        .where({ id })
        .update({ deactivated_at: trx.raw('coalesce(deactivated_at, now())') })
        .returning('*');
      return row as UserRow;
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
