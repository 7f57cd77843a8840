import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import Stripe from 'stripe';
import { call, createOrganization, waitFor } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { killHard, spawnWorkerProcess } from '../helpers/service-process';
import { startExtraApi, stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// Webhook deliveries through the real API, relay, workflows and receivers (https on 127.0.0.1;
// the test stack allows private webhook URLs and retries a second apart, six attempts).

const stripe = new Stripe('sk_test_not_used');

interface Receipt {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver answering the n-th request with `answer(n)` (1-based). */
async function startReceiver(answer: (n: number) => number = () => 200) {
  const received: Receipt[] = [];
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answer(received.length)).end(`answer ${received.length}`);
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, received, close: server.close };
}

async function subscribe(key: string, url: string, events: string[]) {
  const res = await call('POST', '/v1/webhooks', { key, body: { url, events } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

async function deliveryWith(key: string, webhookId: string, status: string) {
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/webhooks/${webhookId}/deliveries`, { key });
      return res.body.data?.find((d: { status: string }) => d.status === status);
    },
    30_000,
    `a delivery to be ${status}`,
  );
}

describe('webhook deliveries', function () {
  this.timeout(120_000);
  const workers: ChildProcess[] = [];
  after(async () => {
    for (const w of workers) await killHard(w);
  });

  it('send exactly the subscribed types, with the headers and envelope of the contract, verifiable by Stripe', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const receiver = await startReceiver();
    try {
      const failures = await subscribe(org.liveKey, receiver.url, ['generation.failed']);
      const all = await subscribe(org.liveKey, `${receiver.url}?all`, ['*']);
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'fine' } });
      const failed = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'broken #fail' } });
      const cmp = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'both', models: ['flux-schnell', 'imagen-4-fast'] } });
      // * gets: success, failure, two children's completions and the comparison's; the filter: the failure.
      await waitFor(async () => receiver.received.length >= 6, 30_000, 'six deliveries');
      const types = receiver.received.map((r) => JSON.parse(r.body).type as string).sort();
      assert.deepEqual(types, ['comparison.completed', 'generation.completed', 'generation.completed', 'generation.completed', 'generation.failed', 'generation.failed']);
      for (const r of receiver.received) {
        const envelope = JSON.parse(r.body);
        assert.deepEqual(Object.keys(envelope).sort(), ['created_at', 'data', 'id', 'type']);
        assert.match(envelope.id, /^evt_/);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.headers['x-service-event'], envelope.type);
        assert.match(String(r.headers['x-service-delivery']), /^dlv_/);
        assert.match(String(r.headers['user-agent']), /generation-service-webhooks/);
        // Each subscription signs with its own secret; exactly one of the two verifies each request.
        const verifies = [failures.secret, all.secret].filter((secret) => {
          try {
            stripe.webhooks.constructEvent(r.body, String(r.headers['x-service-signature']), secret);
            return true;
          } catch {
            return false;
          }
        });
        assert.equal(verifies.length, 1);
      }
      const failedEvents = receiver.received.filter((r) => JSON.parse(r.body).type === 'generation.failed');
      assert.ok(failedEvents.every((r) => JSON.parse(r.body).data.generation_id === failed.body.id));
      const done = receiver.received.find((r) => JSON.parse(r.body).type === 'comparison.completed');
      assert.equal(JSON.parse(done!.body).data.comparison_id, cmp.body.id);
    } finally {
      await receiver.close();
    }
  });

  it("go only to the environment's own subscriptions", async () => {
    const org = await createOrganization();
    const live = await startReceiver();
    const test = await startReceiver();
    try {
      await subscribe(org.liveKey, live.url, ['*']);
      await subscribe(org.testKey, test.url, ['*']);
      await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'sandbox' } });
      await waitFor(async () => test.received.length === 1, 20_000, 'the sandbox delivery');
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'live' } });
      await waitFor(async () => live.received.length === 1, 20_000, 'the live delivery');
      assert.equal(test.received.length, 1);
    } finally {
      await live.close();
      await test.close();
    }
  });

  it('sign with both secrets for a day after a rotation, each verifiable alone', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver();
    try {
      const hook = await subscribe(org.liveKey, receiver.url, ['generation.completed']);
      const rotated = await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { key: org.liveKey });
      assert.equal(rotated.status, 200);
      assert.match(rotated.body.secret, /^whsec_/);
      assert.notEqual(rotated.body.secret, hook.secret);
      assert.ok(Date.parse(rotated.body.previous_secret_expires_at) > Date.now() + 23 * 3600_000);
      assert.equal((await call('GET', `/v1/webhooks/${hook.id}`, { key: org.liveKey })).body.secret, undefined);
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'rotating' } });
      await waitFor(async () => receiver.received.length === 1, 20_000, 'the delivery');
      const [r] = receiver.received;
      const header = String(r!.headers['x-service-signature']);
      assert.equal(header.split(',').filter((p) => p.startsWith('v1=')).length, 2);
      for (const secret of [rotated.body.secret, hook.secret]) stripe.webhooks.constructEvent(r!.body, header, secret);
    } finally {
      await receiver.close();
    }
  });

  it('replay an exhausted delivery as a new delivery with the same envelope id, and refuse to replay one in progress', async () => {
    const org = await createOrganization();
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 500));
    try {
      const hook = await subscribe(org.liveKey, receiver.url, ['*']);
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'try again later' } });
      const failing = await deliveryWith(org.liveKey, hook.id, 'failed');
      const early = await call('POST', `/v1/webhook-deliveries/${failing.id}/replay`, { key: org.liveKey });
      assert.deepEqual([early.status, early.body.error?.code], [409, 'delivery_not_replayable']);
      const exhausted = await deliveryWith(org.liveKey, hook.id, 'exhausted');
      assert.equal(exhausted.attempts.length, 6);
      healthy = true;
      const replay = await call('POST', `/v1/webhook-deliveries/${exhausted.id}/replay`, { key: org.liveKey });
      assert.equal(replay.status, 202, JSON.stringify(replay.body));
      assert.equal(replay.body.replay_of, exhausted.id);
      const done = await waitFor(
        async () => {
          const res = await call('GET', `/v1/webhook-deliveries/${replay.body.id}`, { key: org.liveKey });
          return res.body.status === 'succeeded' ? res.body : undefined;
        },
        20_000,
        'the replay',
      );
      assert.equal(done.attempts.length, 1);
      const ids = new Set(receiver.received.map((r) => JSON.parse(r.body).id));
      assert.equal(ids.size, 1, 'one envelope id across six attempts and the replay');
      assert.equal(receiver.received.length, 7);
    } finally {
      await receiver.close();
    }
  });

  it('stop at once when the webhook is deleted: no attempt after the answer', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver(() => 500);
    try {
      const hook = await subscribe(org.liveKey, receiver.url, ['*']);
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'unwanted' } });
      const failing = await deliveryWith(org.liveKey, hook.id, 'failed');
      const deleted = await call('DELETE', `/v1/webhooks/${hook.id}`, { key: org.liveKey });
      assert.deepEqual(deleted.body, { id: hook.id, object: 'webhook', deleted: true });
      const seen = receiver.received.length;
      // The delivery's workflow closes (cancelled) instead of waiting for its next attempt.
      await stack()
        .temporal.workflow.getHandle(failing.id)
        .result()
        .catch(() => undefined);
      assert.equal((await stack().temporal.workflow.getHandle(failing.id).describe()).status.name, 'CANCELLED');
      const after = await call('GET', `/v1/webhook-deliveries/${failing.id}`, { key: org.liveKey });
      assert.equal(after.body.status, 'exhausted');
      assert.equal(receiver.received.length, seen);
      assert.equal((await call('GET', `/v1/webhooks/${hook.id}`, { key: org.liveKey })).status, 404);
    } finally {
      await receiver.close();
    }
  });

  it('refuse a bad subscription: unknown event type, http or a private address with the guard on, a developer key', async () => {
    const org = await createOrganization();
    const bad = async (body: unknown, key = org.liveKey, baseUrl?: string) => (await call('POST', '/v1/webhooks', { key, body, ...(baseUrl && { baseUrl }) })).body.error;
    assert.deepEqual([(await bad({ url: 'https://93.184.216.34/h', events: ['generation.done'] })).param], ['events.0']);
    assert.equal((await bad({ url: 'ftp://93.184.216.34/h', events: ['*'] })).param, 'url');
    const guarded = await startExtraApi({ webhooks: { ...stack().apiDeps.webhooks!, allowPrivateAddresses: false } });
    try {
      assert.equal((await bad({ url: 'http://93.184.216.34/h', events: ['*'] }, org.liveKey, guarded.url)).param, 'url');
      const refused = await bad({ url: 'https://127.0.0.1/h', events: ['*'] }, org.liveKey, guarded.url);
      assert.deepEqual([refused.code, refused.param], ['validation_failed', 'url']);
      assert.match(refused.message, /private or reserved/);
    } finally {
      await guarded.close();
    }
    const developer = await createKeyWithRole(org.id, 'developer');
    assert.equal((await bad({ url: 'https://93.184.216.34/h', events: ['*'] }, developer)).code, 'insufficient_role');
  });

  it('deliver an event whose commit no relay heard: the sweep fans it out, once', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver();
    try {
      await subscribe(org.liveKey, receiver.url, ['*']);
      // A process that died right after committing the event: simulated by committing it with the
      // commit notification switched off, so only the every-minute sweep can find it.
      const eventId = `evt_sweep${Date.now()}`;
      await stack().knex.transaction(async (trx) => {
        await trx.raw('ALTER TABLE events DISABLE TRIGGER events_committed');
        await trx('events').insert({
          id: eventId,
          organization_id: org.id,
          environment: 'live',
          type: 'generation.completed',
          subject_id: eventId,
          data: JSON.stringify({ generation_id: 'gen_x' }),
        });
        await trx.raw('ALTER TABLE events ENABLE TRIGGER events_committed');
      });
      for (let run = 0; run < 2; run += 1) {
        await stack().temporal.workflow.execute('webhookRelayWorkflow', { taskQueue: stack().config.taskQueue, workflowId: `relay-test-${eventId}-${run}`, args: [] });
      }
      await waitFor(async () => receiver.received.length >= 1, 20_000, 'the swept delivery');
      const rows = await stack().knex('webhook_deliveries').where({ event_id: eventId });
      assert.equal(rows.length, 1);
      assert.equal(JSON.parse(receiver.received[0]!.body).id, eventId);
    } finally {
      await receiver.close();
    }
  });

  it('lose no attempt and double none when the worker is killed between attempts', async () => {
    const org = await createOrganization();
    let requests = 0;
    const receiver = await startReceiver((n) => (n === 1 ? 200 : ++requests === 1 ? 500 : 200));
    try {
      const hook = await subscribe(org.liveKey, receiver.url, ['generation.completed']);
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'first' } });
      const first = await deliveryWith(org.liveKey, hook.id, 'succeeded');
      // A replay through an API whose deliveries go to a queue only a worker process of its own
      // serves, with 3 s between attempts, so that the worker can be killed between them.
      const queue = `webhooks-crash-${Date.now()}`;
      const webhooks = stack().apiDeps.webhooks!;
      const api = await startExtraApi({ webhooks: { ...webhooks, relay: { ...webhooks.relay, taskQueue: queue, scheduleMs: [0, 3_000, 3_000] } } });
      const env = {
        WEBHOOK_TASK_QUEUE: queue,
        WEBHOOK_SECRETS_KEY: stack().config.webhookSecretsKey!,
        WEBHOOK_CA_CERTS: stack().config.webhookCaCerts!,
        ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      };
      try {
        const worker = await spawnWorkerProcess(`${queue}-main`, env);
        workers.push(worker);
        const replay = await call('POST', `/v1/webhook-deliveries/${first.id}/replay`, { key: org.liveKey, baseUrl: api.url });
        assert.equal(replay.status, 202);
        await waitFor(async () => (await call('GET', `/v1/webhook-deliveries/${replay.body.id}`, { key: org.liveKey })).body.attempt_count === 1, 20_000, 'attempt 1');
        await killHard(worker);
        workers.push(await spawnWorkerProcess(`${queue}-main`, env));
        // If the kill lands after attempt 1 was recorded but before the worker reported it done,
        // Temporal retries that activity only after its start-to-close timeout (the receiver's 2 s
        // plus 30 s); the retry finds attempt 1 recorded and sends nothing. Then the 3 s gap.
        const done = await waitFor(
          async () => {
            const res = await call('GET', `/v1/webhook-deliveries/${replay.body.id}`, { key: org.liveKey });
            return res.body.status === 'succeeded' ? res.body : undefined;
          },
          60_000,
          'the replay to succeed',
        );
        assert.deepEqual(
          done.attempts.map((a: { number: number; status_code: number }) => [a.number, a.status_code]),
          [
            [1, 500],
            [2, 200],
          ],
        );
        assert.equal(receiver.received.length, 3, 'the first delivery, then the replay twice');
      } finally {
        await api.close();
      }
    } finally {
      await receiver.close();
    }
  });
});
