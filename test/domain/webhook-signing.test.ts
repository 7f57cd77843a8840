import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import Stripe from 'stripe';
import { signWebhookPayload, newWebhookSecret, WEBHOOK_SIGNATURE_TOLERANCE_S, signStandardWebhook, standardWebhookHeaders } from '../../domain/webhook-signature';
import { parseRetrySchedule, DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../../domain/webhook-retry-schedule';

// Receivers verify our signature with the library they already use: Stripe's.
const stripe = new Stripe('sk_test_not_used');
const body = JSON.stringify({ id: 'evt_1', type: 'generation.completed', created_at: '2026-11-23T00:00:00.000Z', data: { generation_id: 'gen_1' } });
const now = () => Math.floor(Date.now() / 1000);

describe('webhook signatures', () => {
  it("are verified by Stripe's receiver library with the subscription secret", () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[0-9A-Za-z]{40}$/);
    const header = signWebhookPayload({ secrets: [secret], timestamp: now(), body });
    const event = stripe.webhooks.constructEvent(body, header, secret) as unknown as { id: string };
    assert.equal(event.id, 'evt_1');
  });

  it('are refused with another secret, for an altered body, and when older than 300 s', () => {
    const secret = newWebhookSecret();
    const header = signWebhookPayload({ secrets: [secret], timestamp: now(), body });
    assert.throws(() => stripe.webhooks.constructEvent(body, header, newWebhookSecret()), /signature/i);
    assert.throws(() => stripe.webhooks.constructEvent(body.replace('gen_1', 'gen_2'), header, secret), /signature/i);
    const stale = signWebhookPayload({ secrets: [secret], timestamp: now() - WEBHOOK_SIGNATURE_TOLERANCE_S - 1, body });
    assert.throws(() => stripe.webhooks.constructEvent(body, stale, secret, WEBHOOK_SIGNATURE_TOLERANCE_S), /tolerance/i);
  });

  it('carry one v1 per secret during a rotation, each verifiable with its secret alone', () => {
    const [next, previous] = [newWebhookSecret(), newWebhookSecret()];
    const header = signWebhookPayload({ secrets: [next, previous], timestamp: now(), body });
    assert.equal(header.split(',').filter((p) => p.startsWith('v1=')).length, 2);
    for (const secret of [next, previous]) assert.equal((stripe.webhooks.constructEvent(body, header, secret) as unknown as { id: string }).id, 'evt_1');
    assert.throws(() => stripe.webhooks.constructEvent(body, header, newWebhookSecret()), /signature/i);
  });
});

describe('Standard Webhooks signatures', () => {
  it('match a vector computed here with node:crypto, and the one published with the specification', () => {
    const secret = 'whsec_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd';
    const [id, timestamp] = ['evt_1', 1_800_000_000];
    // The spec's key: the secret's part after `whsec_`, base64-decoded; the signed content: `id.timestamp.body`.
    const expected = createHmac('sha256', Buffer.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd', 'base64')).update(`evt_1.1800000000.${body}`).digest('base64');
    assert.equal(signStandardWebhook({ secrets: [secret], id, timestamp, body }), `v1,${expected}`);
    // https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (its worked example).
    const published = signStandardWebhook({
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    assert.equal(published, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('are verified by the standardwebhooks library with the secret as the user holds it, and refused when tampered with', () => {
    const secret = newWebhookSecret();
    const headers = standardWebhookHeaders({ secrets: [secret], id: 'evt_1', timestamp: now(), body });
    assert.deepEqual(Object.keys(headers), ['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    assert.equal((new Webhook(secret).verify(body, headers) as { id: string }).id, 'evt_1');
    const refused = (payload: string, h: Record<string, string>, key = secret) => assert.throws(() => new Webhook(key).verify(payload, h), WebhookVerificationError);
    refused(body.replace('gen_1', 'gen_2'), headers);
    refused(body, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) });
    refused(body, { ...headers, 'webhook-id': 'evt_2' });
    refused(body, headers, newWebhookSecret());
  });

  it('carry one v1 per secret during a rotation, space-separated, each verifiable with its secret alone', () => {
    const [next, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = standardWebhookHeaders({ secrets: [next, previous], id: 'evt_1', timestamp: now(), body });
    assert.match(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    for (const secret of [next, previous]) assert.equal((new Webhook(secret).verify(body, headers) as { id: string }).id, 'evt_1');
    assert.throws(() => new Webhook(newWebhookSecret()).verify(body, headers), WebhookVerificationError);
  });

  it('refuse a secret that is not canonical base64 rather than sign with a key receivers would not derive', () => {
    for (const secret of ['whsec_', 'whsec_abc', 'whsec_not base64!'])
      assert.throws(() => signStandardWebhook({ secrets: [secret], id: 'evt_1', timestamp: now(), body }), /canonical base64/);
  });
});

describe('the webhook retry schedule', () => {
  it('defaults to six attempts: at once, then 1 min, 5 min, 30 min, 2 h and 12 h later', () => {
    assert.deepEqual(parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE), [0, 60_000, 300_000, 1_800_000, 7_200_000, 43_200_000]);
  });

  it('takes ms, s, m, h and d (the units WEBHOOK_DISABLE_AFTER shares), a bare number as ms, and refuses anything else', () => {
    assert.deepEqual(parseRetrySchedule('0, 250ms, 1.5s, 2, 1d'), [0, 250, 1_500, 2, 86_400_000]);
    for (const bad of ['', '1m,,2m', 'soon', '-1s', '1w']) assert.throws(() => parseRetrySchedule(bad), /WEBHOOK_RETRY_SCHEDULE/);
  });
});
