import { disableReason, disablesAtOnce } from '../../domain/webhook-endpoint-health';
import { OPERATIONAL_EVENT_TYPES, type DeliveryExhaustedData, type EndpointDisabledData } from '../../domain/webhook-events';
import type { Environment } from '../../domain/generation-status';
import { newId } from '../../lib/ids';
import type { Db } from '../knex';

// Endpoint health and the operational events (issue 41), as statements inside the transaction that
// records an attempt or ends a delivery (db/repos/webhook-deliveries.ts): each event is written in
// the transaction that makes it true.

interface EndedDelivery {
  id: string;
  subscription_id: string;
  organization_id: string;
  environment: Environment;
  event_id: string;
  event_type: string;
  attempt_count: number;
}

const OPERATIONAL: readonly string[] = OPERATIONAL_EVENT_TYPES;

/**
 * `webhook.delivery_exhausted` for a delivery that just ended `exhausted`. None for the delivery of
 * an operational event: two failing endpoints would otherwise tell each other of their failures forever.
 */
export async function announceExhausted(trx: Db, delivery: EndedDelivery): Promise<void> {
  if (OPERATIONAL.includes(delivery.event_type)) return;
  const data: DeliveryExhaustedData = {
    subscription_id: delivery.subscription_id,
    delivery_id: delivery.id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    attempt_count: delivery.attempt_count,
  };
  await trx('events')
    .insert({
      id: newId('evt'),
      organization_id: delivery.organization_id,
      environment: delivery.environment,
      type: 'webhook.delivery_exhausted',
      subject_id: delivery.id,
      data: JSON.stringify(data),
    })
    .onConflict(['type', 'subject_id'])
    .ignore();
}

/**
 * A failed attempt's verdict on its webhook (a success's is in the statement that records it,
 * db/repos/webhook-deliveries.ts): the first failure after a success sets `failing_since`, and the
 * webhook is disabled when the receiver answered 410 or every attempt has failed for
 * `disableAfterMs`. Returns whether it disabled it.
 */
export async function judgeFailedAttempt(trx: Db, args: { subscriptionId: string; statusCode: number | null; disableAfterMs: number }): Promise<boolean> {
  // Concurrent failures of one webhook are judged one at a time, under its row's lock. Only a 410
  // waits for the lock (it disables at once, whatever else is going on); another failure finding
  // the row locked leaves the judgment to the transaction holding it, or to the next failure. The
  // lock is FOR NO KEY UPDATE, what an UPDATE of these columns takes anyway: FOR UPDATE would also
  // hold up every insert referencing the webhook (the relay's fan-out, for all organizations).
  const query = trx('webhook_subscriptions').where({ id: args.subscriptionId }).whereNull('deleted_at').first('failing_since', 'status', trx.raw('now() AS now')).forNoKeyUpdate();
  const before: { failing_since: Date | null; status: string; now: Date } | undefined = await (disablesAtOnce(args.statusCode) ? query : query.skipLocked());
  if (!before || before.status !== 'enabled') return false;
  if (!before.failing_since) await trx('webhook_subscriptions').where({ id: args.subscriptionId }).update({ failing_since: trx.fn.now() });
  const reason = disableReason({ statusCode: args.statusCode, failingSince: before.failing_since, now: before.now, disableAfterMs: args.disableAfterMs });
  if (!reason) return false;
  await disableSubscription(trx, args.subscriptionId, reason);
  return true;
}

/**
 * Disables an enabled subscription: its deliveries not ended end `exhausted` (each announced), and
 * `webhook.endpoint_disabled` goes to the organization's other subscriptions that listen for it.
 */
async function disableSubscription(trx: Db, subscriptionId: string, reason: string): Promise<void> {
  const [disabled]: { organization_id: string; environment: Environment; url: string; failing_since: Date | null; disabled_at: Date }[] = await trx('webhook_subscriptions')
    .where({ id: subscriptionId, status: 'enabled' })
    .update({ status: 'disabled', disabled_reason: reason, disabled_at: trx.fn.now() })
    .returning(['organization_id', 'environment', 'url', 'failing_since', 'disabled_at']);
  if (!disabled) return;
  const ended: EndedDelivery[] = await trx('webhook_deliveries')
    .where({ subscription_id: subscriptionId })
    .whereIn('status', ['pending', 'failed'])
    .update({ status: 'exhausted', next_attempt_at: null, finished_at: trx.fn.now() })
    .returning(['id', 'subscription_id', 'organization_id', 'environment', 'event_id', 'event_type', 'attempt_count']);
  for (const delivery of ended) await announceExhausted(trx, delivery);
  const data: EndpointDisabledData = {
    subscription_id: subscriptionId,
    url: disabled.url,
    reason,
    failing_since: disabled.failing_since ? disabled.failing_since.toISOString() : null,
    disabled_at: disabled.disabled_at.toISOString(),
  };
  await trx('events').insert({
    id: newId('evt'),
    organization_id: disabled.organization_id,
    environment: disabled.environment,
    type: 'webhook.endpoint_disabled',
    subject_id: `${subscriptionId}@${data.disabled_at}`,
    data: JSON.stringify(data),
  });
}
