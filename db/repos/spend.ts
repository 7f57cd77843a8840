import type { Knex } from 'knex';
import type { Db } from '../knex';

// Live spend summed over periods of generation creation time, for the anomaly detector
// (domain/spending-anomaly.ts). A generation's spend is reserved − refunded (refunded_credits
// holds what a failure or cancel refunded and what a capture released), so a reservation still in
// flight counts in full. Test-key generations are never charged and never count.

const spendOf = (table: string) => `coalesce(sum(${table}.reserved_credits - ${table}.refunded_credits), 0)`;

export interface Period {
  start: Date;
  end: Date;
}

export function createSpendRepo(knex: Knex) {
  return {
    /**
     * Unpaused organizations whose live spend in [since, until) is above `aboveCredits`, each
     * counted from its own `spend_watch_from` when that is later than `since`.
     */
    async organizationsSpendingAbove(period: Period, aboveCredits: number, trx: Db = knex): Promise<string[]> {
      const rows: { organization_id: string }[] = await trx('generations as g')
        .join('organizations as o', 'o.id', 'g.organization_id')
        .where('g.environment', 'live')
        .where('g.created_at', '>=', period.start)
        .where('g.created_at', '<', period.end)
        .where('o.paused', false)
        .where((q) => {
          q.whereNull('o.spend_watch_from').orWhereRaw('g.created_at >= o.spend_watch_from');
        })
        .groupBy('g.organization_id')
        .havingRaw(`${spendOf('g')} > ?`, [aboveCredits])
        .select('g.organization_id')
        .orderBy('g.organization_id');
      return rows.map((r) => r.organization_id);
    },

    /** One organization's live spend on generations created in [start, end). */
    async liveSpend(organizationId: string, period: Period, trx: Db = knex): Promise<number> {
      const row = await trx('generations')
        .where({ organization_id: organizationId, environment: 'live' })
        .where('created_at', '>=', period.start)
        .where('created_at', '<', period.end)
        .first(trx.raw(`${spendOf('generations')} as spend`));
      return Number(row?.spend ?? 0);
    },
  };
}

export type SpendRepo = ReturnType<typeof createSpendRepo>;
