import type { UsageRow } from '../../db/repos/usage';
import type { UsageGroupBy, UsagePeriod } from '../../domain/usage-period';
import { creditsToUsd } from '../../domain/pricing';
import { toCsv } from '../../lib/csv';

export function presentUsageRow(row: UsageRow) {
  return {
    key: row.key,
    generations: row.generations,
    credits_charged: row.creditsCharged,
    credits_refunded: row.creditsRefunded,
    usd: creditsToUsd(row.creditsCharged),
  };
}

/** `GET /v1/usage`'s JSON (decisions §10), with the period it covers so a defaulted one is visible. */
export function presentUsage(groupBy: UsageGroupBy, period: UsagePeriod, rows: UsageRow[]) {
  return { object: 'list' as const, group_by: groupBy, from: period.from, to: period.to, data: rows.map(presentUsageRow) };
}

export const USAGE_CSV_COLUMNS = ['key', 'generations', 'credits_charged', 'credits_refunded', 'usd'] as const;

/** The same rows as `presentUsage`, as CSV for spreadsheets. */
export function presentUsageCsv(rows: UsageRow[]): string {
  return toCsv([USAGE_CSV_COLUMNS, ...rows.map((r) => USAGE_CSV_COLUMNS.map((column) => presentUsageRow(r)[column]))]);
}

export const usageCsvFilename = (groupBy: UsageGroupBy, period: UsagePeriod) => `usage-${period.from}-${period.to}-${groupBy}.csv`;
