// The event types a webhook can subscribe to (spec §6), and which subscription wants which event.

export const WEBHOOK_EVENT_TYPES = [
  'generation.completed',
  'generation.failed',
  'comparison.completed',
  'usage.budget_threshold',
  'usage.anomaly_detected',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `*` subscribes to every type, including types added later. */
export const ALL_EVENTS = '*';

export function subscriptionWants(events: readonly string[], type: string): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}

/** The envelope a receiver gets (spec §2): the same bytes' meaning on every attempt and replay. */
export function webhookEnvelope(event: { id: string; type: string; created_at: Date; data: Record<string, unknown> }) {
  return { id: event.id, type: event.type, created_at: event.created_at.toISOString(), data: event.data };
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
