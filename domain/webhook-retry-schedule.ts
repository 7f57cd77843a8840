// WEBHOOK_RETRY_SCHEDULE (decisions §10): the gap before each attempt, e.g. `0,1m,5m,30m,2h,12h`
// (spec §6: six attempts, the first at once). Units ms, s, m, h; a bare number is milliseconds.

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '0,1m,5m,30m,2h,12h';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** One duration in the schedule's units (and d, days), e.g. `5d`, `90s`; a bare number is milliseconds. */
export function parseDurationMs(text: string, setting: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`${setting}: "${text}" is not a duration (use ms, s, m, h or d)`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!);
}

export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) throw new Error(`WEBHOOK_RETRY_SCHEDULE must list gaps like "0,1m,5m", got "${text}"`);
  return parts.map((part) => parseDurationMs(part, 'WEBHOOK_RETRY_SCHEDULE'));
}
