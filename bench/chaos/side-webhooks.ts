import type { Knex } from 'knex';
import { startHttpsServer, type TestCertificate } from '../../test/helpers/tls';
import { requestJson } from '../lib/http-client';

// Two more webhook subscriptions in the chaos run (issue 41), beside the one every check is about:
// - "gone": its receiver answers 410 Gone, so its first attempt disables it. Through the faults it
//   must stay disabled, every delivery it would have had must be written and ended `exhausted`
//   (a bulk recovery finds them), nothing may reach it once disabled, and the organization hears
//   of it once (`webhook.endpoint_disabled`).
// - "throttled": `max_deliveries_per_second` set, receiver always 200. Every delivery must succeed,
//   exactly one per event, and the receiver must never see more than the rate allows in any second.

/** A receiver answering `status` to everything, with the time each request arrived. */
export interface RecordingReceiver {
  url: string;
  receipts: { deliveryId: string; at: number }[];
  close(): Promise<void>;
}

export async function startRecordingReceiver(certificate: TestCertificate, status: number): Promise<RecordingReceiver> {
  const receipts: { deliveryId: string; at: number }[] = [];
  const server = await startHttpsServer(certificate, (req, res) => {
    const at = Date.now();
    req.resume();
    req.on('end', () => {
      receipts.push({ deliveryId: String(req.headers['x-service-delivery']), at });
      res.writeHead(status).end();
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, receipts, close: server.close };
}

/** Creates a subscription to every event through the API; `extra` adds fields (a rate). */
export async function subscribe(apiUrl: string, key: string, url: string, extra: Record<string, unknown> = {}): Promise<{ id: string; createdAt: Date }> {
  const res = await requestJson('POST', `${apiUrl}/v1/webhooks`, { Authorization: `Bearer ${key}` }, { url, events: ['*'], ...extra });
  const hook = JSON.parse(res.body) as { id?: string; created_at?: string };
  if (res.status !== 201 || !hook.id || !hook.created_at) throw new Error(`the webhook subscription failed: ${res.status} ${res.body}`);
  return { id: hook.id, createdAt: new Date(hook.created_at) };
}

/** The organization's events after `since` that may go to `subscriptionId` (not the webhook.* events about it). */
export async function eventsFor(knex: Knex, organizationId: string, subscriptionId: string, since: Date): Promise<{ id: string; type: string }[]> {
  return knex('events')
    .where({ organization_id: organizationId })
    .where('created_at', '>', since)
    .whereRaw(`NOT (type LIKE 'webhook.%' AND data->>'subscription_id' = ?)`, [subscriptionId])
    .select('id', 'type');
}

/** One delivery per event, no more, no fewer: the fan-out's promise whatever the faults did. */
function oneDeliveryPerEvent(events: { id: string }[], deliveries: { event_id: string }[]): string[] {
  const perEvent = new Map<string, number>();
  for (const d of deliveries) perEvent.set(d.event_id, (perEvent.get(d.event_id) ?? 0) + 1);
  const violations = events.flatMap((e) => ((perEvent.get(e.id) ?? 0) === 1 ? [] : [`event ${e.id} has ${perEvent.get(e.id) ?? 0} deliveries, expected exactly 1`]));
  const known = new Set(events.map((e) => e.id));
  violations.push(...deliveries.filter((d) => !known.has(d.event_id)).map((d) => `a delivery of event ${d.event_id}, which is not the organization's since subscribing`));
  return violations;
}

/** How long after its disabling a request may still reach a disabled webhook: attempts already sending. */
const DISABLE_GRACE_MS = 3_000;

export async function checkGoneSubscription(args: {
  knex: Knex;
  apiUrl: string;
  key: string;
  organizationId: string;
  subscriptionId: string;
  since: Date;
  receiver: RecordingReceiver;
}) {
  const { knex, receiver } = args;
  const violations: string[] = [];
  const shown = JSON.parse((await requestJson('GET', `${args.apiUrl}/v1/webhooks/${args.subscriptionId}`, { Authorization: `Bearer ${args.key}` })).body) as {
    status?: string;
    disabled_reason?: string | null;
  };
  if (shown.status !== 'disabled') violations.push(`the 410 webhook shows status ${shown.status}, expected disabled`);
  if (!/410/.test(shown.disabled_reason ?? '')) violations.push(`the 410 webhook's disabled_reason does not name the 410: ${shown.disabled_reason}`);
  const row: { disabled_at: Date | null } | undefined = await knex('webhook_subscriptions').where({ id: args.subscriptionId }).first('disabled_at');
  const disabledAt = row?.disabled_at?.getTime();
  const deliveries: { id: string; event_id: string; status: string; attempt_count: number }[] = await knex('webhook_deliveries')
    .where({ subscription_id: args.subscriptionId })
    .whereNull('replay_of')
    .select('id', 'event_id', 'status', 'attempt_count');
  violations.push(...oneDeliveryPerEvent(await eventsFor(knex, args.organizationId, args.subscriptionId, args.since), deliveries));
  for (const d of deliveries) if (d.status !== 'exhausted') violations.push(`delivery ${d.id} to the 410 webhook ended ${d.status}, expected exhausted`);
  const late = disabledAt === undefined ? receiver.receipts : receiver.receipts.filter((r) => r.at > disabledAt + DISABLE_GRACE_MS);
  if (late.length > 0) violations.push(`${late.length} requests reached the 410 webhook more than ${DISABLE_GRACE_MS / 1000} s after its disabling (${late[0]!.deliveryId}, …)`);
  const announced: { n: string }[] = await knex('events')
    .where({ organization_id: args.organizationId, type: 'webhook.endpoint_disabled' })
    .whereRaw(`data->>'subscription_id' = ?`, [args.subscriptionId])
    .count({ n: '*' });
  if (Number(announced[0]?.n) !== 1) violations.push(`webhook.endpoint_disabled emitted ${announced[0]?.n} times for the 410 webhook, expected once`);
  return {
    violations,
    figures: { deliveries: deliveries.length, attempted: deliveries.filter((d) => d.attempt_count > 0).length, requests: receiver.receipts.length },
  };
}

/** The most requests the receiver saw within any `windowMs` (a sliding window over receipt times). */
export function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j += 1) {
    while (sorted[j]! - sorted[i]! >= windowMs) i += 1;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

export async function checkThrottledSubscription(args: { knex: Knex; organizationId: string; subscriptionId: string; since: Date; receiver: RecordingReceiver; rate: number }) {
  const { knex, receiver, rate } = args;
  const violations: string[] = [];
  const deliveries: { id: string; event_id: string; status: string }[] = await knex('webhook_deliveries')
    .where({ subscription_id: args.subscriptionId })
    .whereNull('replay_of')
    .select('id', 'event_id', 'status');
  violations.push(...oneDeliveryPerEvent(await eventsFor(knex, args.organizationId, args.subscriptionId, args.since), deliveries));
  for (const d of deliveries) if (d.status !== 'succeeded') violations.push(`delivery ${d.id} to the throttled webhook ended ${d.status}`);
  const seen = new Set(receiver.receipts.map((r) => r.deliveryId));
  const unseen = deliveries.filter((d) => d.status === 'succeeded' && !seen.has(d.id));
  if (unseen.length > 0) violations.push(`${unseen.length} deliveries to the throttled webhook succeeded without reaching its receiver (${unseen[0]!.id}, …)`);
  // Slots are 1/rate apart, so a second holds at most rate + 1 of them.
  const busiest = busiestWindow(
    receiver.receipts.map((r) => r.at),
    1_000,
  );
  if (busiest > Math.floor(rate) + 1) violations.push(`the throttled webhook (${rate}/s) received ${busiest} requests within one second`);
  const times = receiver.receipts.map((r) => r.at);
  const spanS = times.length > 1 ? (Math.max(...times) - Math.min(...times)) / 1000 : 0;
  const waited: { n: string }[] = await knex('webhook_attempts as a')
    .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .where('d.subscription_id', args.subscriptionId)
    .where('a.throttled_ms', '>', 0)
    .count({ n: '*' });
  return { violations, figures: { deliveries: deliveries.length, requests: receiver.receipts.length, busiest, spanS, throttledAttempts: Number(waited[0]?.n ?? 0) } };
}
