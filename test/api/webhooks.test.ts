import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, createOrganization, waitFor } from '../helpers/http';
import { startExtraApi, stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';
import { MAX_WEBHOOKS_PER_ENVIRONMENT } from '../../domain/webhook-limit';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** An https receiver answering each request with the next of `statuses` (the last repeats). */
async function startReceiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!, { 'Content-Type': 'text/plain' });
      res.end(`answer ${received.length}`);
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, received, close: server.close };
}

/** A plain-http receiver on 127.0.0.1: a developer's local endpoint, without TLS. */
async function startPlainReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close };
}

describe('webhooks', function () {
  this.timeout(60_000);

  it('delivers generation.completed to a subscribed receiver, signed with the subscription secret, and logs the attempt', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver();
    try {
      const created = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: receiver.url, events: ['generation.completed'] } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.match(created.body.secret, /^whsec_/);
      const gen = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'hooked' } });
      assert.equal(gen.status, 200);
      await waitFor(async () => receiver.received.length >= 1, 20_000, 'the delivery');
      const [got] = receiver.received;
      const envelope = JSON.parse(got!.body);
      assert.equal(envelope.type, 'generation.completed');
      assert.equal(envelope.data.generation_id, gen.body.id);
      const [t, v1] = String(got!.headers['x-service-signature']).split(',');
      const timestamp = t!.slice(2);
      const expected = createHmac('sha256', created.body.secret).update(`${timestamp}.${got!.body}`).digest('hex');
      assert.equal(v1, `v1=${expected}`);
      const deliveries = await waitFor(
        async () => {
          const res = await call('GET', `/v1/webhooks/${created.body.id}/deliveries`, { key: org.liveKey });
          return res.body.data[0]?.status === 'succeeded' ? res.body.data : undefined;
        },
        20_000,
        'the delivery to be logged',
      );
      assert.equal(deliveries[0].attempts.length, 1);
      assert.equal(deliveries[0].attempts[0].status_code, 200);
      assert.equal(got!.headers['x-service-delivery'], deliveries[0].id);
    } finally {
      await receiver.close();
    }
  });

  it('retries a failing receiver on the schedule until it is exhausted: six attempts, one envelope id', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver([500]);
    try {
      const created = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: receiver.url, events: ['*'] } });
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'fails downstream' } });
      const delivery = await waitFor(
        async () => {
          const res = await call('GET', `/v1/webhooks/${created.body.id}/deliveries`, { key: org.liveKey });
          return res.body.data[0]?.status === 'exhausted' ? res.body.data[0] : undefined;
        },
        30_000,
        'the delivery to be exhausted',
      );
      assert.equal(delivery.attempts.length, 6);
      assert.equal(receiver.received.length, 6);
      assert.equal(new Set(receiver.received.map((r) => JSON.parse(r.body).id)).size, 1);
      assert.deepEqual(
        delivery.attempts.map((a: { status_code: number }) => a.status_code),
        [500, 500, 500, 500, 500, 500],
      );
    } finally {
      await receiver.close();
    }
  });

  it('accept events "*" as a plain string, read as ["*"]: every event type is delivered', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver();
    try {
      const created = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: receiver.url, events: '*' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.events, ['*']);
      assert.deepEqual((await call('GET', `/v1/webhooks/${created.body.id}`, { key: org.liveKey })).body.events, ['*']);
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'fails #fail' } });
      await waitFor(async () => receiver.received.length >= 1, 20_000, 'the delivery');
      assert.equal(JSON.parse(receiver.received[0]!.body).type, 'generation.failed');
      // Any other string is still refused, naming the field.
      const other = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: receiver.url, events: 'generation.completed' } });
      assert.deepEqual([other.status, other.body.error?.code, other.body.error?.param], [400, 'validation_failed', 'events']);
    } finally {
      await receiver.close();
    }
  });

  it('deliver over plain http to a local receiver when ALLOW_PRIVATE_WEBHOOK_URLS is on, and refuse http when it is off', async () => {
    const org = await createOrganization();
    const receiver = await startPlainReceiver();
    try {
      // The test stack runs as the embedded default does: private addresses allowed.
      const created = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: receiver.url, events: ['generation.completed'] } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const gen = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'to localhost' } });
      await waitFor(async () => receiver.received.length >= 1, 20_000, 'the delivery over http');
      const [got] = receiver.received;
      assert.equal(JSON.parse(got!.body).data.generation_id, gen.body.id);
      const [t, v1] = String(got!.headers['x-service-signature']).split(',');
      assert.equal(
        v1,
        `v1=${createHmac('sha256', created.body.secret)
          .update(`${t!.slice(2)}.${got!.body}`)
          .digest('hex')}`,
      );
      const guarded = await startExtraApi({ webhooks: { ...stack().apiDeps.webhooks!, allowPrivateAddresses: false } });
      try {
        const refused = await call('POST', '/v1/webhooks', { key: org.liveKey, baseUrl: guarded.url, body: { url: 'http://93.184.216.34/hook', events: ['*'] } });
        assert.deepEqual([refused.status, refused.body.error?.code, refused.body.error?.param], [400, 'validation_failed', 'url']);
        assert.match(refused.body.error.message, /must use https/);
      } finally {
        await guarded.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it('allow 16 webhooks per organization and environment: 20 created at once give 16 created and 4 refused 409 webhook_limit_reached; a deleted one frees its place; the test environment has its own 16', async () => {
    const org = await createOrganization();
    const create = (key: string, n: number) => call('POST', '/v1/webhooks', { key, body: { url: `https://127.0.0.1:9/hook/${n}`, events: ['generation.completed'] } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => create(org.liveKey, n)));
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    assert.equal(created.length, MAX_WEBHOOKS_PER_ENVIRONMENT);
    assert.deepEqual(
      refused.map((a) => [a.status, a.body.error.code]),
      Array.from({ length: 4 }, () => [409, 'webhook_limit_reached']),
    );
    assert.match(refused[0]!.body.error.message, /already has 16 webhooks in its live environment.*Delete one/);
    const listed = await call('GET', '/v1/webhooks?limit=100', { key: org.liveKey });
    assert.equal(listed.body.data.length, MAX_WEBHOOKS_PER_ENVIRONMENT);

    assert.equal((await create(org.testKey, 100)).status, 201, 'the test environment counts its own');
    assert.equal((await call('DELETE', `/v1/webhooks/${created[0]!.body.id}`, { key: org.liveKey })).status, 200);
    assert.equal((await create(org.liveKey, 101)).status, 201, 'a deleted webhook frees its place');
    assert.equal((await create(org.liveKey, 102)).status, 409);
  });
});
