import { parseDurationMs } from './webhook-retry-schedule';

// How long a generation's output files are kept (issue 42 item 3), one rule for the API, which
// decides each job's expiry when its request arrives, and the docs. A request's `retention` wins;
// without one, the organization's `retention_days` (set by the operator through the admin API);
// without that, the plan's default (OUTPUT_RETENTION_DAYS, 30 days unless configured).

const HOUR_S = 3600;
const DAY_S = 86_400;

/** The shortest and longest `retention` a request may ask for, in seconds (`1h` to `365d`). */
export const RETENTION_BOUNDS_S = { min: HOUR_S, max: 365 * DAY_S } as const;

/** The organization default when neither the organization nor the configuration sets one. */
export const DEFAULT_RETENTION_DAYS = 30;

/** A retention: so many seconds, or `forever` (Enterprise organizations only). */
export type Retention = { kind: 'forever' } | { kind: 'seconds'; seconds: number };

/** The wire syntax: a whole number of minutes, hours or days (`90m`, `12h`, `7d`), or `forever`. */
export const RETENTION_PATTERN = '^(forever|[1-9][0-9]{0,5}[mhd])$';
const RETENTION_REGEX = new RegExp(RETENTION_PATTERN);

/** A `retention` text as a Retention; why not when it is malformed or out of bounds. */
export function parseRetention(text: string): { ok: true; retention: Retention } | { ok: false; reason: string } {
  if (!RETENTION_REGEX.test(text)) return { ok: false, reason: "must be a whole number of minutes, hours or days ('90m', '12h', '30d') or 'forever'" };
  if (text === 'forever') return { ok: true, retention: { kind: 'forever' } };
  // The grammar is narrower than the configuration's durations; their conversion is the same.
  const seconds = parseDurationMs(text, 'retention') / 1000;
  if (seconds < RETENTION_BOUNDS_S.min || seconds > RETENTION_BOUNDS_S.max) return { ok: false, reason: `must be between 1h and 365d, not ${text}` };
  return { ok: true, retention: { kind: 'seconds', seconds } };
}

/** The retention a job gets: the request's, else the organization's, else the configured default. */
export function effectiveRetention(requested: Retention | undefined, organizationDays: number | null, defaultDays: number): Retention {
  return requested ?? { kind: 'seconds', seconds: (organizationDays ?? defaultDays) * DAY_S };
}

/** When a job's outputs expire, counted from its request's arrival; null: never. */
export function outputsExpireAt(retention: Retention, now: Date): Date | null {
  return retention.kind === 'forever' ? null : new Date(now.getTime() + retention.seconds * 1000);
}

/** Whether an output with this expiry and deletion mark is gone at `now`. */
export function outputGone(output: { expires_at: Date | string | null; deleted_at: Date | string | null }, now: Date): boolean {
  if (output.deleted_at !== null) return true;
  return output.expires_at !== null && new Date(output.expires_at).getTime() <= now.getTime();
}
