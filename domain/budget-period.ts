// Key budgets run by calendar month in UTC (decisions §4): a month is named by its first day.

/** The budget month `at` falls in, as `YYYY-MM-01`. */
export function budgetPeriodOf(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

/** `YYYY-MM`, as events and messages name a month. */
export function monthName(period: string): string {
  return period.slice(0, 7);
}

/** USD from credits (1 USD = 1,000 credits), to the tenth of a cent. */
export function creditsToUsd(credits: number): number {
  return Math.round(credits) / 1000;
}
