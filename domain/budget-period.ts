// Key budgets run by calendar month in UTC (decisions §4): a month is named by its first day.

/** The budget month `at` falls in, as `YYYY-MM-01`. */
export function budgetPeriodOf(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

/**
 * What a key has spent in the month a request of `requestPeriod` counts in, from its spend row
 * (the month it last spent in and what it spent then): the later of the two months, as
 * `budget_admits` decides (db/migrations/0017-budget-months.ts). A row of an earlier month means
 * nothing is spent yet in the request's month; a request dated before the row's month counts in
 * the row's.
 */
export function spentInRequestMonth(row: { period: string; spentCredits: number }, requestPeriod: string): number {
  return row.period >= requestPeriod ? row.spentCredits : 0;
}
