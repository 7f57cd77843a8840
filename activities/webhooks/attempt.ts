import type { Repos } from '../../db/repos';
import { signWebhookPayload } from '../../domain/webhook-signature';
import { webhookEnvelope } from '../../domain/webhook-events';
import { webhookSecretBinding } from '../../lib/secret-bindings';
import type { SecretBox } from '../../lib/secret-box';
import type { WebhookDeliveryOutcome } from '../../workflows/definitions';
import { sendWebhook } from './send-webhook';

export const WEBHOOK_USER_AGENT = 'generation-service-webhooks/1.0';

export interface WebhookAttemptSettings {
  allowPrivateAddresses: boolean;
  secretBox: SecretBox;
  extraCa?: string;
}

/**
 * One attempt of a delivery: signs the event's envelope with the subscription's secret (and, within
 * 24 h of a rotation, its previous one), sends it, and records the attempt with the delivery's new
 * status. Sends nothing for a delivery that has ended (its subscription deleted).
 */
export function createAttemptActivity(deps: { repos: Repos; settings: () => WebhookAttemptSettings }) {
  const { repos } = deps;
  return async function attemptWebhookDelivery(args: {
    deliveryId: string;
    number: number;
    timeoutMs: number;
    nextGapMs: number | null;
  }): Promise<WebhookDeliveryOutcome> {
    const found = await repos.webhookDeliveries.findForAttempt(args.deliveryId);
    if (!found) throw new Error(`no delivery ${args.deliveryId}`);
    const { delivery, subscription, event } = found;
    if (delivery.status === 'succeeded') return 'succeeded';
    if (delivery.status === 'exhausted') return delivery.attempt_count >= args.number ? 'exhausted' : 'stopped';
    if (delivery.attempt_count >= args.number) {
      // This attempt was recorded by an earlier run of this activity: its verdict stands.
      return 'failed';
    }
    if (!subscription) {
      await repos.webhookDeliveries.end(delivery.id);
      return 'stopped';
    }
    if (!event) throw new Error(`delivery ${delivery.id} names no event ${delivery.event_id}`);
    const { secretBox, allowPrivateAddresses, extraCa } = deps.settings();
    const body = JSON.stringify(webhookEnvelope(event));
    const secrets = [secretBox.open(subscription.secretSealed, webhookSecretBinding(delivery.subscription_id))];
    if (subscription.previousSecretSealed && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > new Date()) {
      secrets.push(secretBox.open(subscription.previousSecretSealed, webhookSecretBinding(delivery.subscription_id)));
    }
    const result = await sendWebhook({
      url: subscription.url,
      body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        'X-Service-Signature': signWebhookPayload({ secrets, timestamp: Math.floor(Date.now() / 1000), body }),
        'X-Service-Event': event.type,
        'X-Service-Delivery': delivery.id,
      },
      timeoutMs: args.timeoutMs,
      allowPrivateAddresses,
      ...(extraCa && { extraCa }),
    });
    const status = result.delivered ? 'succeeded' : args.nextGapMs === null ? 'exhausted' : 'failed';
    const after = await repos.webhookDeliveries.recordAttempt({
      deliveryId: delivery.id,
      number: args.number,
      result,
      status,
      nextAttemptAt: status === 'failed' ? new Date(Date.now() + args.nextGapMs!) : null,
    });
    if (after === 'succeeded' || after === 'failed') return after;
    return after === 'exhausted' && status === 'exhausted' ? 'exhausted' : 'stopped';
  };
}
