// The event types a webhook can subscribe to (spec §6), and the envelope and statuses of a delivery.

export const WEBHOOK_EVENT_TYPES = [
  'generation.completed',
  'generation.failed',
  'comparison.completed',
  'usage.budget_threshold',
  'usage.anomaly_detected',
  'webhook.endpoint_disabled',
  'webhook.delivery_exhausted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Events about the webhooks themselves (issue 41). Each names the subscription it is about in
 * `data.subscription_id`, and that subscription never receives it (the fan-out skips it): an endpoint
 * that fails cannot be told so through itself.
 */
export const OPERATIONAL_EVENT_TYPES = ['webhook.endpoint_disabled', 'webhook.delivery_exhausted'] as const satisfies readonly WebhookEventType[];

/** `webhook.delivery_exhausted` data: the delivery that ended `exhausted`, and what it carried. */
export interface DeliveryExhaustedData {
  subscription_id: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt_count: number;
}

/** `webhook.endpoint_disabled` data. */
export interface EndpointDisabledData {
  subscription_id: string;
  url: string;
  reason: string;
  /** Since when every attempt has failed; null when a 410 disabled it before any failure. */
  failing_since: string | null;
  disabled_at: string;
}

/** `*` subscribes to every type, including types added later. */
export const ALL_EVENTS = '*';

/** The envelope a receiver gets (spec §2): the same bytes' meaning on every attempt and replay. */
export function webhookEnvelope(event: { id: string; type: string; created_at: Date; data: Record<string, unknown> }) {
  return { id: event.id, type: event.type, created_at: event.created_at.toISOString(), data: event.data };
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * `usage.budget_threshold` data (decisions §4). Written by the ledger's statement triggers and the
 * admission statements (db/migrations/0017-budget-months.ts), in the statement that makes it true.
 */
export interface BudgetThresholdData {
  threshold: 50 | 80 | 100;
  /** `crossed` for 50 and 80; for 100, `reached` (spend equals the budget) or `request_refused` (the budget refused a request first). */
  reason: 'crossed' | 'reached' | 'request_refused';
  api_key_id: string;
  budget_usd: number;
  /** The month's spend, reservations in flight included: after the crossing statement, or before the refused request. */
  spent_usd: number;
  /** `YYYY-MM`, UTC. */
  period: string;
}
