// Endpoint health (issue 41, docs/api.md "Endpoint health"): when a subscription is disabled. The
// delivery path asks this after each failed attempt it records (db/repos/webhook-health.ts), so no
// Schedule is needed; a subscription that gets no new deliveries is therefore never judged.

export const WEBHOOK_SUBSCRIPTION_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookSubscriptionStatus = (typeof WEBHOOK_SUBSCRIPTION_STATUSES)[number];

/** WEBHOOK_DISABLE_AFTER's default: every delivery failed for five days. */
export const DEFAULT_WEBHOOK_DISABLE_AFTER = '5d';

/** 410 Gone: the receiver says the endpoint is gone for good. */
const GONE = 410;

/** Whether this answer disables its subscription whatever its history (its judgment may not be skipped). */
export function disablesAtOnce(statusCode: number | null): boolean {
  return statusCode === GONE;
}

/**
 * Why a failed attempt disables its subscription, or null if it does not: the receiver answered
 * 410 Gone, or every attempt has failed since `failingSince` for at least `disableAfterMs`.
 */
export function disableReason(args: { statusCode: number | null; failingSince: Date | null; now: Date; disableAfterMs: number }): string | null {
  if (disablesAtOnce(args.statusCode)) return 'The endpoint answered 410 Gone.';
  if (args.failingSince && args.now.getTime() - args.failingSince.getTime() >= args.disableAfterMs) {
    return `Every delivery failed since ${args.failingSince.toISOString()} (WEBHOOK_DISABLE_AFTER).`;
  }
  return null;
}
