import { createHmac } from 'node:crypto';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { startHttpsServer, type TestCertificate } from '../../test/helpers/tls';

// Webhook deliveries in the chaos run: a receiver that refuses the first attempt of every delivery
// (so most deliveries wait on a timer when the faults hit), and the checks afterwards.

export interface ChaosReceiver {
  url: string;
  /** Requests per delivery id, and whether each one's signature verified. */
  requests: Map<string, { count: number; badSignatures: number }>;
  setSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startChaosReceiver(certificate: TestCertificate): Promise<ChaosReceiver> {
  const requests = new Map<string, { count: number; badSignatures: number }>();
  let secret = '';
  const server = await startHttpsServer(certificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const delivery = String(req.headers['x-service-delivery']);
      const seen = requests.get(delivery) ?? { count: 0, badSignatures: 0 };
      seen.count += 1;
      const [t, ...v1s] = String(req.headers['x-service-signature']).split(',');
      const expected = `v1=${createHmac('sha256', secret)
        .update(`${t?.slice(2)}.${body}`)
        .digest('hex')}`;
      if (!v1s.includes(expected)) seen.badSignatures += 1;
      requests.set(delivery, seen);
      res.writeHead(seen.count === 1 ? 500 : 200).end();
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, requests, setSecret: (s) => void (secret = s), close: server.close };
}

/** Waits until every delivery of the organization has ended, or the deadline; returns those still open. */
export async function waitUntilDelivered(knex: Knex, organizationId: string, limitMs: number): Promise<number> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const open = await knex('webhook_deliveries').where({ organization_id: organizationId }).whereIn('status', ['pending', 'failed']).count({ n: '*' });
    const undispatched = await knex('events').where({ organization_id: organizationId }).whereNull('dispatched_at').count({ n: '*' });
    const pending = Number(open[0]?.n ?? 0) + Number(undispatched[0]?.n ?? 0);
    if (pending === 0 || Date.now() > deadline) return pending;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Deliveries not ended (`pending`, `failed`) whose workflow is closed or gone: nothing will end them
 * but the relay's sweep, so after the drain each one is a violation, named with its workflow's state.
 */
export async function strandedDeliveries(knex: Knex, temporal: Client, organizationId: string): Promise<string[]> {
  const open: { id: string; status: string }[] = await knex('webhook_deliveries')
    .where({ organization_id: organizationId })
    .whereIn('status', ['pending', 'failed'])
    .select('id', 'status');
  const stranded: string[] = [];
  for (const d of open) {
    let workflow: string;
    try {
      workflow = (await temporal.workflow.getHandle(d.id).describe()).status.name;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      workflow = 'missing';
    }
    if (workflow !== 'RUNNING') stranded.push(`delivery ${d.id} is ${d.status} but its workflow is ${workflow}`);
  }
  return stranded;
}

export async function checkDeliveries(args: { knex: Knex; organizationId: string; subscriptionId: string; since: Date; receiver: ChaosReceiver }) {
  const { knex, receiver } = args;
  const violations: string[] = [];
  const events: { id: string }[] = await knex('events').where({ organization_id: args.organizationId }).where('created_at', '>', args.since).select('id');
  const deliveries: { id: string; event_id: string; status: string; attempt_count: number }[] = await knex('webhook_deliveries')
    .where({ subscription_id: args.subscriptionId })
    .whereNull('replay_of')
    .select('id', 'event_id', 'status', 'attempt_count');
  const attempts: { delivery_id: string; number: number }[] = await knex('webhook_attempts')
    .whereIn(
      'delivery_id',
      deliveries.map((d) => d.id),
    )
    .orderBy(['delivery_id', 'number'])
    .select('delivery_id', 'number');
  const perEvent = new Map<string, number>();
  for (const d of deliveries) perEvent.set(d.event_id, (perEvent.get(d.event_id) ?? 0) + 1);
  for (const e of events) {
    const count = perEvent.get(e.id) ?? 0;
    if (count !== 1) violations.push(`event ${e.id} has ${count} deliveries, expected exactly 1`);
  }
  const numbers = new Map<string, number[]>();
  for (const a of attempts) numbers.set(a.delivery_id, [...(numbers.get(a.delivery_id) ?? []), a.number]);
  let extraRequests = 0;
  const extras: string[] = [];
  for (const d of deliveries) {
    if (d.status !== 'succeeded') violations.push(`delivery ${d.id} ended ${d.status}`);
    const recorded = numbers.get(d.id) ?? [];
    if (recorded.join(',') !== Array.from({ length: d.attempt_count }, (_, i) => i + 1).join(',')) {
      violations.push(`delivery ${d.id}: attempts [${recorded.join(',')}] for attempt_count ${d.attempt_count}`);
    }
    const seen = receiver.requests.get(d.id) ?? { count: 0, badSignatures: 0 };
    if (seen.badSignatures > 0) violations.push(`delivery ${d.id}: ${seen.badSignatures} requests with a signature that does not verify`);
    if (seen.count < recorded.length) violations.push(`delivery ${d.id}: ${recorded.length} attempts recorded, the receiver saw ${seen.count}`);
    if (seen.count > recorded.length) {
      // An attempt sent, then its worker killed before it was recorded: sent again (at-least-once).
      extraRequests += seen.count - recorded.length;
      extras.push(d.id);
    }
  }
  return {
    violations,
    figures: {
      events: events.length,
      deliveries: deliveries.length,
      attempts: attempts.length,
      retried: deliveries.filter((d) => d.attempt_count > 1).length,
      extraRequests,
      extras,
    },
  };
}
