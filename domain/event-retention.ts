// How long events are kept (EVENT_RETENTION_DAYS, issue 41 item 5), one rule for the two places
// that apply it: the events feed, which shows nothing older (api/routes/events.ts), and the
// retention sweep, which deletes what is older (activities/event-retention.ts).

const DAY_MS = 86_400_000;

/** EVENT_RETENTION_DAYS when it is not set. */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;

/** The oldest instant whose events are kept, `days` days before `now`. */
export function eventRetentionStart(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/**
 * The first budget month (its 1st, UTC) whose `usage.budget_threshold` events are still kept
 * however old they are: the month before `now`'s. Those rows are the once-per-key-month-threshold
 * guard (their insert is `ON CONFLICT (type, subject_id) DO NOTHING`, migration 0017): deleting one
 * while its month can still emit would let a refund that lowers spend, followed by new spend, send
 * the same threshold twice (a 31-day month outlives the default 30 days). A month can only emit
 * while it is a key's current month, and a reservation dated a few seconds before midnight by an
 * API's clock can still count in it just after; keeping the whole previous month as well is a
 * margin of at least a month, for at most three rows per key and month.
 */
export function budgetThresholdKeptFrom(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
}
