import { ApiError } from '../errors';

// RFC 3339 instants in requests (the events feed's filters, a bulk recovery's window) that Postgres
// must hold: one check, one message.

/**
 * RFC 3339 allows what neither JavaScript nor Postgres can hold: a leap second (23:59:60), which
 * Date.parse refuses, and the year 0, which Postgres has no room for.
 */
function isStorableInstant(value: string): boolean {
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).getUTCFullYear() >= 1;
}

/** 400 validation_failed naming the first of `params` whose value is an instant JavaScript or Postgres cannot hold. */
export function refuseUnstorableInstants<K extends string>(values: Partial<Record<K, string>>, params: readonly K[]): void {
  for (const param of params) {
    const value = values[param];
    if (value !== undefined && !isStorableInstant(value)) {
      throw new ApiError('validation_failed', `Invalid ${param}: must be an RFC 3339 instant between the years 1 and 9999 (a leap second such as 23:59:60 is not one).`, { param });
    }
  }
}
