import type { Knex } from 'knex';
import type { Environment } from '../../domain/generation-status';
import type { Modality } from '../../domain/modalities';
import type { UsageGroupBy } from '../../domain/usage-period';
import type { Db } from '../knex';

export interface UsageRow {
  key: string;
  generations: number;
  creditsCharged: number;
  creditsRefunded: number;
}

export interface UsageFilter {
  organizationId: string;
  environment: Environment;
  groupBy: UsageGroupBy;
  /** UTC days, `YYYY-MM-DD`, both inclusive. */
  from: string;
  to: string;
  modality?: Modality;
  apiKeyId?: string;
}

// What each grouping groups on. A day is written back as `YYYY-MM-DD` by Postgres itself, so no
// time zone of this process can shift it.
const GROUP_KEY: Record<UsageGroupBy, string> = {
  day: `to_char(day, 'YYYY-MM-DD')`,
  model: 'model',
  api_key: 'api_key_id',
  modality: 'modality',
};

export function createUsageRepo(knex: Knex) {
  return {
    /**
     * Sums the `usage_daily` rollup (db/migrations/0012-usage.ts), which the ledger's own triggers
     * keep, so a month is a range scan of its primary key over a few thousand rows rather than an
     * aggregation of every generation. Sorted by key, byte order (`COLLATE "C"`), so the order
     * does not depend on the database's locale.
     */
    async summarize(filter: UsageFilter, trx: Db = knex): Promise<UsageRow[]> {
      const key = GROUP_KEY[filter.groupBy];
      const query = trx('usage_daily')
        .select(
          trx.raw(`${key} AS key`),
          trx.raw('sum(generations)::bigint AS generations'),
          trx.raw('sum(credits_charged)::bigint AS credits_charged'),
          trx.raw('sum(credits_refunded)::bigint AS credits_refunded'),
        )
        .where({ organization_id: filter.organizationId, environment: filter.environment })
        .whereBetween('day', [filter.from, filter.to])
        .groupByRaw('1')
        .orderByRaw(`${key} COLLATE "C"`);
      if (filter.modality) query.where('modality', filter.modality);
      if (filter.apiKeyId) query.where('api_key_id', filter.apiKeyId);
      const rows: { key: string; generations: number; credits_charged: number; credits_refunded: number }[] = await query;
      return rows.map((r) => ({
        key: r.key,
        generations: r.generations,
        creditsCharged: r.credits_charged,
        creditsRefunded: r.credits_refunded,
      }));
    },
  };
}
