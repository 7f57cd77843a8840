import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Repos } from '../../db/repos';
import { signWebhookPayload, standardWebhookHeaders } from '../../domain/webhook-signature';
import { webhookEnvelope } from '../../domain/webhook-events';
import { webhookSecretBinding } from '../../lib/secret-bindings';
import type { SecretBox } from '../../lib/secret-box';
import type { WebhookDeliveryOutcome } from '../../workflows/definitions';
import { sendWebhook, type WebhookAttemptResult } from './send-webhook';
import { SEND_AT_ONCE_WITHIN_MS } from '../../domain/webhook-throttle';
import { countWebhookAttempt } from './webhook-metrics';

/** A statement Postgres refuses for its data (SQLSTATE classes 22, 23): no retry stores it. */
function isPermanentDatabaseError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length === 5 && (code.startsWith('22') || code.startsWith('23'));
}

export const WEBHOOK_USER_AGENT = 'generation-service-webhooks/1.0';

export interface WebhookAttemptSettings {
  allowPrivateAddresses: boolean;
  disableAfterMs: number;
  secretBox: SecretBox;
  extraCa?: string;
}

/**
 * What attempt `number` came to: the delivery's outcome (recorded, or nothing to send), the
 * receiver's answer to a POST that went out but could not be recorded at once, or, for a throttled
 * subscription, nothing sent yet: the attempt's send slot is `waitMs` away and now held for it.
 */
export type SentAttempt = { kind: 'ended'; outcome: WebhookDeliveryOutcome } | { kind: 'sent'; result: WebhookAttemptResult } | { kind: 'wait'; waitMs: number };

export interface AttemptArgs {
  deliveryId: string;
  number: number;
  timeoutMs: number;
  /** The gap before the next attempt; null when this is the schedule's last. */
  nextGapMs: number | null;
  /**
   * Set once the attempt holds its send slot (it waited this long for it): no slot is taken, only the
   * gate is passed. Unset, a throttled subscription's send takes a slot first (max_deliveries_per_second).
   * 0: never throttled (the pre-`delivery-always-ends` step, whose workflow cannot wait).
   */
  waitedForSlotMs?: number;
}

/** How long the send step waits for its own record of the answer before handing it to the record step. */
const RECORD_AT_ONCE_MS = 5_000;

export interface RecordArgs {
  deliveryId: string;
  number: number;
  result: WebhookAttemptResult;
  /** The gap before the next attempt; null when this is the schedule's last. */
  nextGapMs: number | null;
  /** How long the attempt waited for its send slot (0 or absent: it did not). */
  throttledMs?: number;
}

/**
 * A delivery's attempt, in two steps:
 * - send: reads the delivery, signs the event's envelope with the subscription's secret (and,
 *   within 24 h of a rotation, its previous one) in both schemes (domain/webhook-signature.ts),
 *   sends it and records the answer at once, as attempt `number` with the delivery's new status
 *   (the shortest window in which a killed worker leaves an attempt sent but unrecorded). Sends
 *   nothing for a delivery that has ended or whose attempt `number` is already recorded. A throw
 *   here (the database, a secret that does not open) is an infrastructure failure before the POST:
 *   a retry sends this same attempt. A record that fails or lags after the POST never throws: the
 *   answer goes back to the workflow instead. For a throttled subscription (max_deliveries_per_second),
 *   the send first takes the subscription's next slot, then passes its gate (db/repos/webhook-throttle.ts);
 *   a slot ahead or a closed gate comes back as `wait`, sending nothing and recording nothing (a wait
 *   is no attempt and no failure), and the workflow sends the same attempt after it with
 *   `waitedForSlotMs` set (the slot held: only the gate again).
 * - record: writes such an answer, retried by the workflow; never the POST again.
 * `attemptWebhookDelivery` is the send step as it was for deliveries started before
 * `patched('delivery-always-ends')`: a failed record throws, and its retry sends again; it takes no
 * slot (that workflow code cannot wait for one), so such a delivery is sent unthrottled.
 */
export function createAttemptActivities(deps: { repos: Repos; settings: () => WebhookAttemptSettings }) {
  const { repos } = deps;

  async function sendWebhookAttempt(args: AttemptArgs): Promise<SentAttempt> {
    const found = await repos.webhookDeliveries.findForAttempt(args.deliveryId);
    // A delivery row that is gone has nowhere to be sent and nothing to record.
    if (!found) return { kind: 'ended', outcome: 'stopped' };
    const { delivery, subscription, event } = found;
    if (delivery.status === 'succeeded') return { kind: 'ended', outcome: 'succeeded' };
    if (delivery.status === 'exhausted') return { kind: 'ended', outcome: delivery.attempt_count >= args.number ? 'exhausted' : 'stopped' };
    if (delivery.attempt_count >= args.number) {
      // This attempt was recorded by an earlier run: its verdict stands.
      return { kind: 'ended', outcome: 'failed' };
    }
    if (!subscription || !subscription.enabled) {
      // Deleted, or disabled (its disabling ended its open deliveries and said so): nothing is sent.
      await repos.webhookDeliveries.end(delivery.id);
      return { kind: 'ended', outcome: 'stopped' };
    }
    if (!event) throw new Error(`delivery ${delivery.id} names no event ${delivery.event_id}`);
    if (subscription.maxDeliveriesPerSecond !== null && args.waitedForSlotMs !== 0) {
      if (args.waitedForSlotMs === undefined) {
        const waitMs = await repos.webhookDeliveries.takeSendSlot({ deliveryId: delivery.id, subscriptionId: delivery.subscription_id });
        if (waitMs !== null && waitMs > SEND_AT_ONCE_WITHIN_MS) return { kind: 'wait', waitMs: Math.ceil(waitMs) };
      }
      const gateMs = await repos.webhookDeliveries.passSendGate(delivery.subscription_id);
      if (gateMs > 0) {
        // Sends whose timers fired late together (after an outage) would all wait for the gate's
        // next opening and wake as a herd again and again; each takes a fresh slot instead, so they
        // spread out at the rate at once (seen in npm run chaos).
        const slotMs = await repos.webhookDeliveries.takeSendSlot({ deliveryId: delivery.id, subscriptionId: delivery.subscription_id });
        return { kind: 'wait', waitMs: Math.ceil(Math.max(gateMs, slotMs ?? 0)) };
      }
    }
    const { secretBox, allowPrivateAddresses, extraCa } = deps.settings();
    const body = JSON.stringify(webhookEnvelope(event));
    const secrets = [secretBox.open(subscription.secretSealed, webhookSecretBinding(delivery.subscription_id))];
    if (subscription.previousSecretSealed && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > new Date()) {
      secrets.push(secretBox.open(subscription.previousSecretSealed, webhookSecretBinding(delivery.subscription_id)));
    }
    // One timestamp for both schemes; the Standard Webhooks id is the event's, the same on every attempt and replay.
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await sendWebhook({
      url: subscription.url,
      body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        'X-Service-Signature': signWebhookPayload({ secrets, timestamp, body }),
        'X-Service-Event': event.type,
        'X-Service-Delivery': delivery.id,
        ...standardWebhookHeaders({ secrets, id: event.id, timestamp, body }),
      },
      timeoutMs: args.timeoutMs,
      allowPrivateAddresses,
      ...(extraCa && { extraCa }),
    });
    try {
      const recorded = recordWebhookAttempt({
        deliveryId: delivery.id,
        number: args.number,
        result,
        nextGapMs: args.nextGapMs,
        ...(args.waitedForSlotMs !== undefined && { throttledMs: args.waitedForSlotMs }),
      });
      // A late record is harmless: the record step's own is then a no-op (attempts are keyed by number).
      recorded.catch(() => undefined);
      const outcome = await Promise.race([recorded, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), RECORD_AT_ONCE_MS).unref())]);
      if (outcome) return { kind: 'ended', outcome };
      Context.current().log.warn('a webhook attempt was sent and its record is slow; the workflow records it', { delivery_id: delivery.id, attempt: args.number });
    } catch (err) {
      Context.current().log.warn('a webhook attempt was sent and could not be recorded yet; the workflow records it', {
        delivery_id: delivery.id,
        attempt: args.number,
        error: String(err),
      });
    }
    return { kind: 'sent', result };
  }

  async function recordWebhookAttempt(args: RecordArgs): Promise<WebhookDeliveryOutcome> {
    const status = args.result.delivered ? 'succeeded' : args.nextGapMs === null ? 'exhausted' : 'failed';
    const record = (result: WebhookAttemptResult) =>
      repos.webhookDeliveries.recordAttempt({
        deliveryId: args.deliveryId,
        number: args.number,
        result,
        status,
        nextAttemptAt: status === 'failed' ? new Date(Date.now() + args.nextGapMs!) : null,
        throttledMs: args.throttledMs ?? 0,
        disableAfterMs: deps.settings().disableAfterMs,
      });
    let written;
    try {
      written = await record(args.result);
    } catch (err) {
      if (!isPermanentDatabaseError(err)) throw err;
      // The database refuses this answer on its merits (no retry can store it): the attempt is
      // recorded without the receiver's body, so it is never sent again for want of a record.
      try {
        written = await record({
          ...args.result,
          responseBody: null,
          error: `${args.result.error ?? 'delivered'}; the answer could not be stored (${(err as { code?: string }).code})`,
        });
      } catch (again) {
        if (!isPermanentDatabaseError(again)) throw again;
        throw ApplicationFailure.create({ message: `attempt ${args.number} of ${args.deliveryId} was sent and cannot be recorded`, nonRetryable: true, cause: again as Error });
      }
    }
    if (written.recorded) countWebhookAttempt(args.result, status, written.eventCreatedAt);
    const after = written.status;
    if (after === 'succeeded' || after === 'failed') return after;
    return after === 'exhausted' && status === 'exhausted' ? 'exhausted' : 'stopped';
  }

  return {
    sendWebhookAttempt,
    recordWebhookAttempt,

    /** Ends a delivery whose workflow stops short of a recorded verdict (workflows/webhook-delivery.ts). */
    async endWebhookDelivery(deliveryId: string): Promise<void> {
      await repos.webhookDeliveries.end(deliveryId, { announce: true });
    },

    async attemptWebhookDelivery(args: AttemptArgs): Promise<WebhookDeliveryOutcome> {
      const sent = await sendWebhookAttempt({ ...args, waitedForSlotMs: 0 });
      if (sent.kind === 'ended') return sent.outcome;
      // Its record failed: thrown, so the activity is retried, as before the patch.
      throw new Error(`attempt ${args.number} of delivery ${args.deliveryId} was sent and could not be recorded`);
    },
  };
}
