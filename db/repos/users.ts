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
}

export function createUsersRepo(knex: Knex) {
  return {
    async create(
      user: { id: string; organization_id: string; name: string; email?: string | null; role: Role },
      trx: Db = knex,
    ): Promise<UserRow> {
      const [row] = await trx('users').insert(user).returning('*');
      return row as UserRow;
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
