import { metrics } from '../../observability/metrics';
import type { WebhookAttemptResult } from './send-webhook';

// Webhook attempts and deliveries in the metric catalog (observability/metrics.ts), counted by the
// statement that recorded the attempt: a record step that finds its attempt already recorded (the
// send step's own record, late) counts nothing.

type AttemptOutcome = 'delivered' | 'http_error' | 'timeout' | 'network_error' | 'refused';

/** How an attempt ended, from send-webhook.ts's result: a status, the SSRF guard's refusal, its timeout, or the network. */
function attemptOutcome(result: WebhookAttemptResult): AttemptOutcome {
  if (result.delivered) return 'delivered';
  if (result.statusCode !== null) return 'http_error';
  if (result.error?.startsWith('refused: ')) return 'refused';
  if (result.error?.startsWith('no answer within ')) return 'timeout';
  return 'network_error';
}

/** One recorded attempt; the delivery's end when it was the last (delivered, or exhausted). */
export function countWebhookAttempt(result: WebhookAttemptResult, status: 'succeeded' | 'failed' | 'exhausted', eventCreatedAt: Date | null): void {
  metrics.webhookAttempts.inc({ outcome: attemptOutcome(result) });
  if (status === 'succeeded') {
    metrics.webhookDeliveries.inc({ outcome: 'delivered' });
    if (eventCreatedAt) metrics.webhookDeliveryLatency.observe(Math.max(0, (Date.now() - new Date(eventCreatedAt).getTime()) / 1000));
  } else if (status === 'exhausted') metrics.webhookDeliveries.inc({ outcome: 'exhausted' });
}
