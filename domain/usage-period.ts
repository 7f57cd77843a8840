// The period and groupings of `GET /v1/usage` (decisions §10): UTC calendar days, both ends
// inclusive. Pure, so the route and its tests share one reading of the defaults.

export const USAGE_GROUPINGS = ['day', 'model', 'api_key', 'modality'] as const;
export type UsageGroupBy = (typeof USAGE_GROUPINGS)[number];

/** A year, leap day included: longer ranges are refused so one request cannot scan unbounded history. */
export const MAX_USAGE_RANGE_DAYS = 366;

export interface UsagePeriod {
  /** `YYYY-MM-DD`, inclusive. */
  from: string;
  /** `YYYY-MM-DD`, inclusive. */
  to: string;
}

export type UsagePeriodProblem = { param: 'from'; message: string };

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const epochDay = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/**
 * The period a query names: `to` defaults to today (UTC), `from` to the first day of `to`'s month,
 * so no parameters means the current month so far. A problem names `from`, the end a caller
 * usually moves.
 */
export function resolveUsagePeriod(query: { from?: string; to?: string }, now: Date): UsagePeriod | UsagePeriodProblem {
  const to = query.to ?? dayOf(now);
  const from = query.from ?? `${to.slice(0, 7)}-01`;
  if (from > to) {
    return { param: 'from', message: `Invalid from: ${from} is after to (${to}${query.to ? '' : ', today in UTC'}).` };
  }
  const days = epochDay(to) - epochDay(from) + 1;
  if (days > MAX_USAGE_RANGE_DAYS) {
    return { param: 'from', message: `Invalid from: the range ${from}..${to} spans ${days} days; at most ${MAX_USAGE_RANGE_DAYS} are allowed. Ask for it in parts.` };
  }
  return { from, to };
}
