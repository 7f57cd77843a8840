import type { AttemptRow, DeliveryRow } from '../../db/repos/webhook-deliveries';
import type { WebhookRow } from '../../db/repos/webhooks';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A Webhook subscription (spec §2); `secret` only where the caller may see it once (create, rotate). */
export function presentWebhook(row: WebhookRow, secret?: string) {
  const rotating = row.previous_secret_expires_at && row.previous_secret_expires_at > new Date();
  return {
    id: row.id,
    object: 'webhook' as const,
    url: row.url,
    events: row.events,
    description: row.description,
    created_at: row.created_at.toISOString(),
    // While set, deliveries carry a second signature made with the previous secret.
    previous_secret_expires_at: rotating ? iso(row.previous_secret_expires_at) : null,
    status: row.status,
    disabled_reason: row.disabled_reason,
    last_success_at: iso(row.last_success_at),
    failing_since: iso(row.failing_since),
    max_deliveries_per_second: row.max_deliveries_per_second,
    ...(secret !== undefined && { secret }),
  };
}

export function presentDelivery(delivery: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    webhook_id: delivery.subscription_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempt_count: delivery.attempt_count,
    next_attempt_at: iso(delivery.next_attempt_at),
    replay_of: delivery.replay_of,
    created_at: delivery.created_at.toISOString(),
    finished_at: iso(delivery.finished_at),
    attempts: attempts.map((a) => ({
      number: a.number,
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      error: a.error,
      response_body: a.response_body,
      throttled_ms: a.throttled_ms,
      created_at: a.created_at.toISOString(),
    })),
  };
}
