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
  /** Output retention default of its jobs, in days (migration 0026); null: the plan's. */
  retention_days?: number | null;
  /** When an operator last unpaused it: the anomaly detector judges only spend from then on. */
  spend_watch_from: Date | null;
  created_at: Date;
}

export function createOrganizationsRepo(knex: Knex) {
  return {
    /** Creates the organization and its empty wallet. */
    async create(org: { id: string; name: string; plan: Plan; enterprise: boolean }, trx: Db = knex): Promise<OrganizationRow> {
      const [row] = await trx('organizations').insert(org).returning('*');
      await trx('wallets').insert({ organization_id: org.id });
      return row as OrganizationRow;
    },

    async findById(id: string, trx: Db = knex): Promise<OrganizationRow | undefined> {
      return trx('organizations').where({ id }).first();
    },

    async update(
      id: string,
      changes: Partial<Pick<OrganizationRow, 'plan' | 'enterprise' | 'paused' | 'rate_limit_per_minute' | 'retention_days'>>,
      trx: Db = knex,
    ): Promise<OrganizationRow | undefined> {
      // Unpausing a paused organization starts the anomaly detector's watch afresh
      // (migration 0013): the burst that paused it does not pause it again.
      const unpausing = changes.paused === false && { spend_watch_from: trx.raw('CASE WHEN paused THEN now() ELSE spend_watch_from END') };
      const [row] = await trx('organizations')
        .where({ id })
        .update({ ...changes, ...unpausing })
        .returning('*');
      return row;
    },

    /** The anomaly detector's pause; undefined when the organization was already paused. */
    async pauseForAnomaly(id: string, trx: Db = knex): Promise<OrganizationRow | undefined> {
      const [row] = await trx('organizations').where({ id, paused: false }).update({ paused: true }).returning('*');
      return row;
    },
  };
}

export type OrganizationsRepo = ReturnType<typeof createOrganizationsRepo>;
