// WEBHOOK_RETRY_SCHEDULE (decisions §10): the gap before each attempt, e.g. `0,1m,5m,30m,2h,12h`
// (spec §6: six attempts, the first at once). Units ms, s, m, h; a bare number is milliseconds.

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '0,1m,5m,30m,2h,12h';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) throw new Error(`WEBHOOK_RETRY_SCHEDULE must list gaps like "0,1m,5m", got "${text}"`);
  return parts.map((part) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(part);
    if (!match) throw new Error(`WEBHOOK_RETRY_SCHEDULE: "${part}" is not a duration (use ms, s, m or h)`);
    return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!);
  });
}
