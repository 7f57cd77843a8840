import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import Stripe from 'stripe';
import { call, createOrganization, waitFor } from '../helpers/http';
import { stack } from '../helpers/stack';
import { startHttpsServer } from '../helpers/tls';

// Issue 41, item 6: every delivery attempt and replay also carries the Standard Webhooks headers,
// and a receiver verifies them with the stock `standardwebhooks` library given the subscription's
// `whsec_…` secret exactly as the API showed it. Through the real API, relay, delivery workflows and
// an https receiver (the test stack retries a second apart).

const stripe = new Stripe('sk_test_not_used');

interface Receipt {
  headers: IncomingMessage['headers'];
  body: string;
  receivedAt: number;
}

/** A receiver answering the n-th request with `answer(n)` (1-based). */
async function startReceiver(answer: (n: number) => number = () => 200) {
  const received: Receipt[] = [];
  const server = await startHttpsServer(stack().receiverCertificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body, receivedAt: Date.now() });
      res.writeHead(answer(received.length)).end();
    });
  });
  return { url: `https://127.0.0.1:${server.port}/hook`, received, close: server.close };
}

async function subscribe(key: string, url: string) {
  const res = await call('POST', '/v1/webhooks', { key, body: { url, events: ['generation.completed'] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

/** The three Standard Webhooks headers of a receipt, as a receiver hands them to the library. */
function standardHeaders(r: Receipt): Record<string, string> {
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, r.headers[name]]));
  for (const [name, value] of Object.entries(headers)) assert.equal(typeof value, 'string', `the delivery carries ${name}`);
  return headers as Record<string, string>;
}

function verified(r: Receipt, secret: string): { id: string; type: string } {
  return new Webhook(secret).verify(r.body, standardHeaders(r)) as { id: string; type: string };
}

/** The library refuses the receipt with its body or its timestamp altered. */
function assertTamperingRefused(r: Receipt, secret: string) {
  const headers = standardHeaders(r);
  const body = r.body.replace('"generation.completed"', '"generation.failed"');
  assert.notEqual(body, r.body);
  assert.throws(() => new Webhook(secret).verify(body, headers), WebhookVerificationError);
  const earlier = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) };
  assert.throws(() => new Webhook(secret).verify(r.body, earlier), WebhookVerificationError);
}

describe('Standard Webhooks signatures on deliveries', function () {
  this.timeout(120_000);

  it('are verified by the standardwebhooks library on every attempt, retries and a replay alike, with one webhook-id, and refused when tampered with', async () => {
    const org = await createOrganization();
    // Two failures, then success: attempts 1 and 2 are retried, attempt 3 succeeds; then a replay.
    const receiver = await startReceiver((n) => (n <= 2 ? 500 : 200));
    try {
      const hook = await subscribe(org.liveKey, receiver.url);
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'signed twice over' } });
      const delivery = await waitFor(
        async () => {
          const res = await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: org.liveKey });
          return res.body.data?.find((d: { status: string }) => d.status === 'succeeded');
        },
        30_000,
        'the delivery to succeed',
      );
      assert.equal(delivery.attempts.length, 3);
      const replay = await call('POST', `/v1/webhook-deliveries/${delivery.id}/replay`, { key: org.liveKey });
      assert.equal(replay.status, 202, JSON.stringify(replay.body));
      await waitFor(async () => receiver.received.length === 4, 20_000, 'the replay');

      const envelopeId = JSON.parse(receiver.received[0]!.body).id as string;
      assert.match(envelopeId, /^evt_/);
      for (const r of receiver.received) {
        const event = verified(r, hook.secret);
        assert.equal(event.id, envelopeId);
        assert.equal(r.headers['webhook-id'], envelopeId, 'the envelope id, the same on every attempt and the replay');
        // This attempt's time, in unix seconds, the same as X-Service-Signature's `t=`.
        const timestamp = Number(r.headers['webhook-timestamp']);
        assert.ok(Math.abs(timestamp - r.receivedAt / 1000) < 5, `webhook-timestamp ${timestamp} is the attempt's time`);
        const stripeHeader = String(r.headers['x-service-signature']);
        assert.equal(stripeHeader.split(',')[0], `t=${timestamp}`);
        assert.match(String(r.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
        // The existing scheme is still there and still verifies.
        stripe.webhooks.constructEvent(r.body, stripeHeader, hook.secret);
        assert.equal(r.headers['x-service-event'], 'generation.completed');
        assert.match(String(r.headers['x-service-delivery']), /^dlv_/);
        assertTamperingRefused(r, hook.secret);
      }
      assert.equal(receiver.received[3]!.headers['x-service-delivery'], replay.body.id, 'the fourth request is the replay');
      // Another subscription's secret verifies none of them.
      const other = await subscribe(org.liveKey, `${receiver.url}?other`);
      assert.throws(() => verified(receiver.received[0]!, other.secret), WebhookVerificationError);
    } finally {
      await receiver.close();
    }
  });

  it('carry two signatures during a rotation, each verifiable with its secret alone', async () => {
    const org = await createOrganization();
    const receiver = await startReceiver();
    try {
      const hook = await subscribe(org.liveKey, receiver.url);
      const rotated = await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { key: org.liveKey });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'rotating' } });
      await waitFor(async () => receiver.received.length === 1, 20_000, 'the delivery');
      const [r] = receiver.received;
      assert.match(String(r!.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
      for (const secret of [rotated.body.secret as string, hook.secret]) {
        assert.equal(verified(r!, secret).id, r!.headers['webhook-id']);
        assertTamperingRefused(r!, secret);
      }
      // Each signature is one secret's: the one left alone verifies with its secret only.
      const [first, second] = String(r!.headers['webhook-signature']).split(' ');
      const alone = (signature: string) => ({ ...r!, headers: { ...r!.headers, 'webhook-signature': signature } });
      assert.equal(verified(alone(first!), rotated.body.secret).id, r!.headers['webhook-id']);
      assert.throws(() => verified(alone(first!), hook.secret), WebhookVerificationError);
      assert.equal(verified(alone(second!), hook.secret).id, r!.headers['webhook-id']);
    } finally {
      await receiver.close();
    }
  });
});
