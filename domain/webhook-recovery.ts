// Bulk recovery's rules (issue 41, item 4; docs/api.md "Bulk recovery"), shared by the API that
// accepts a recovery and the workflow that runs it, and the refusal a disabled webhook's replay
// shares with a single delivery's replay.

export const WEBHOOK_RECOVERY_STATUSES = ['queued', 'running', 'completed'] as const;
export type WebhookRecoveryStatus = (typeof WEBHOOK_RECOVERY_STATUSES)[number];

/**
 * A request without `until` answers the recovery of an identical earlier one (same `since`, also
 * without `until`) made within this long: a retried request is the same window, a later one is not.
 */
export const DEFAULTED_UNTIL_REUSE_MS = 60_000;

/** Deliveries replayed per activity, and pages per run before the workflow continues as new. */
export const RECOVERY_PAGE_SIZE = 100;
export const RECOVERY_PAGES_PER_RUN = 50;

const DAY_MS = 86_400_000;

/**
 * Why the window [since, until) cannot be recovered (the field at fault and an actionable message),
 * or undefined. `until` must not be in the future (the set of deliveries is fixed at creation) and
 * `since` must be within the events' retention (EVENT_RETENTION_DAYS): older events are gone.
 */
export function recoveryWindowRefusal(
  window: { since: Date; until: Date | undefined },
  now: Date,
  retentionDays: number,
): { param: 'since' | 'until'; message: string } | undefined {
  if (window.until && window.until.getTime() > now.getTime()) return { param: 'until', message: 'Invalid until: must not be in the future (omit it to mean now).' };
  const until = window.until ?? now;
  if (window.since.getTime() >= until.getTime()) return { param: 'since', message: 'Invalid since: must be earlier than until (or than now when until is omitted).' };
  const retentionStart = now.getTime() - retentionDays * DAY_MS;
  if (window.since.getTime() < retentionStart) {
    return {
      param: 'since',
      message: `Invalid since: must be within the events' retention (the last ${retentionDays} days, EVENT_RETENTION_DAYS): older events are no longer kept.`,
    };
  }
  return undefined;
}

/** What a replay to a disabled webhook (its deliveries would end at once) asks for first. */
export function enableFirstHint(webhookId: string): string {
  return `enable it first (PATCH /v1/webhooks/${webhookId} with {"status": "enabled"})`;
}
