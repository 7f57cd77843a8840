import { parseDurationMs } from './webhook-retry-schedule';

// The `Cancel-After` request header (issue 42, deadlines): how long a job may take, from the
// request's arrival, before it is canceled (`error_code: deadline_exceeded`). Its grammar is
// narrower than the configuration's durations (webhook-retry-schedule.ts), whose conversion it
// reuses: a whole number of seconds, minutes or hours, as Replicate's header of the same name
// takes them. The limit is the modality's provider budget (generation-timeouts.ts): a longer
// deadline could never fire, as the budget ends the job first.

const CANCEL_AFTER_PATTERN = /^[1-9][0-9]{0,6}(s|m|h)$/;

/** What a header asks: its deadline in ms, or why it is refused (a message naming the header and the limit). */
export type CancelAfterVerdict = { ok: true; ms: number } | { ok: false; message: string };

export function parseCancelAfter(text: string, maxMs: number): CancelAfterVerdict {
  const limit = describeLimit(maxMs);
  if (!CANCEL_AFTER_PATTERN.test(text)) {
    return { ok: false, message: `Cancel-After must be a whole number of seconds, minutes or hours, such as 30s, 5m or 1h (at most ${limit}); got "${text}".` };
  }
  const ms = parseDurationMs(text, 'Cancel-After');
  if (ms > maxMs) return { ok: false, message: `Cancel-After may be at most ${limit} for this modality (its provider budget); got "${text}".` };
  return { ok: true, ms };
}

/** The limit as the header would write it: whole hours, minutes or seconds. */
function describeLimit(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.floor(ms / 1000)}s`;
}
