import type { Knex } from 'knex';
import type { Plan } from '../../domain/plans';
import type { Db } from '../knex';

export interface OrganizationRow {
  id: string;
  name: string;
  plan: Plan;
  enterprise: boolean;
  paused: boolean;
  rate_limit_per_minute: number | null;
  created_at: Date;
}

export function createOrganizationsRepo(knex: Knex) {
  return {
    /** Creates the organization and its empty wallet. */
    async create(
      org: { id: string; name: string; plan: Plan; enterprise: boolean },
      trx: Db = knex,
    ): Promise<OrganizationRow> {
      const [row] = await trx('organizations').insert(org).returning('*');
      await trx('wallets').insert({ organization_id: org.id });
      return row as OrganizationRow;
    },

    async findById(id: string, trx: Db = knex): Promise<OrganizationRow | undefined> {
      return trx('organizations').where({ id }).first();
    },

    async update(
      id: string,
      changes: Partial<Pick<OrganizationRow, 'plan' | 'enterprise' | 'paused' | 'rate_limit_per_minute'>>,
      trx: Db = knex,
    ): Promise<OrganizationRow | undefined> {
      const [row] = await trx('organizations').where({ id }).update(changes).returning('*');
      return row;
    },
  };
}

export type OrganizationsRepo = ReturnType<typeof createOrganizationsRepo>;
