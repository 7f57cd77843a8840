// Key budgets run by calendar month in UTC (decisions §4): a month is named by its first day.

/** The budget month `at` falls in, as `YYYY-MM-01`. */
export function budgetPeriodOf(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}
