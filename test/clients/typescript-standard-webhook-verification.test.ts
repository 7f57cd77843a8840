import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { verifyStandardWebhook, WebhookVerificationError } from '../../clients/typescript/src/index';
import { newWebhookSecret, standardWebhookHeaders, WEBHOOK_SIGNATURE_TOLERANCE_S } from '../../domain/webhook-signature';

// The client's verifyStandardWebhook against two signers it must agree with: the `standardwebhooks`
// library (what any Standard Webhooks sender produces) and the service's own domain signer. A valid
// delivery verifies with each live secret; a changed body, timestamp or id, another secret and a
// stale timestamp are refused.

const now = 1_800_000_000;
const event = (text: string) => JSON.stringify({ id: 'evt_1', type: 'generation.completed', created_at: '2027-01-15T08:00:00.000Z', data: { generation_id: text } });
const refused = (f: () => unknown, message: RegExp) => assert.throws(f, (e: unknown) => e instanceof WebhookVerificationError && message.test(e.message));

/** What the standardwebhooks library sends, signed with every given secret (one v1 each, space-separated as during a rotation). */
function librarySigned(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  const signature = secrets.map((secret) => new Webhook(secret).sign(id, new Date(timestamp * 1000), body)).join(' ');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('the TypeScript client’s verifyStandardWebhook', () => {
  it('accepts what the standardwebhooks library and the service sign, with each live secret, and returns the event', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: -300, max: 300 }), (text, count, skew) => {
        const secrets = Array.from({ length: count }, newWebhookSecret);
        const body = event(text);
        const fromLibrary = librarySigned(secrets, 'evt_1', now + skew, body);
        const fromService = standardWebhookHeaders({ secrets, id: 'evt_1', timestamp: now + skew, body });
        assert.equal(fromService['webhook-signature'], fromLibrary['webhook-signature'], 'the service signs as the library does');
        for (const secret of secrets) assert.equal((verifyStandardWebhook(body, fromLibrary, secret, { now }).data as { generation_id: string }).generation_id, text);
        assert.equal(verifyStandardWebhook(Buffer.from(body), new Headers(fromService), [newWebhookSecret(), secrets.at(-1)!], { now }).type, 'generation.completed');
      }),
      { numRuns: 100 },
    );
  });

  it('verifies both signatures of a rotation, each with its own secret only', () => {
    const [previous, next] = [newWebhookSecret(), newWebhookSecret()];
    const body = event('gen_1');
    const headers = librarySigned([previous, next], 'evt_1', now, body);
    const [first, second] = headers['webhook-signature']!.split(' ');
    assert.equal(verifyStandardWebhook(body, { ...headers, 'webhook-signature': first! }, previous, { now }).id, 'evt_1');
    assert.equal(verifyStandardWebhook(body, { ...headers, 'webhook-signature': second! }, next, { now }).id, 'evt_1');
    refused(() => verifyStandardWebhook(body, { ...headers, 'webhook-signature': first! }, next, { now }), /no signature matches/);
    refused(() => verifyStandardWebhook(body, { ...headers, 'webhook-signature': second! }, previous, { now }), /no signature matches/);
  });

  it('refuses a changed body, timestamp or id, another secret, a stale timestamp and missing or malformed headers', () => {
    const secret = newWebhookSecret();
    const body = event('gen_1');
    const headers = librarySigned([secret], 'evt_1', now, body);
    refused(() => verifyStandardWebhook(body.replace('gen_1', 'gen_2'), headers, secret, { now }), /no signature matches/);
    refused(() => verifyStandardWebhook(body, { ...headers, 'webhook-timestamp': String(now + 1) }, secret, { now }), /no signature matches/);
    refused(() => verifyStandardWebhook(body, { ...headers, 'webhook-id': 'evt_2' }, secret, { now }), /no signature matches/);
    refused(() => verifyStandardWebhook(body, headers, newWebhookSecret(), { now }), /no signature matches/);
    refused(() => verifyStandardWebhook(body, headers, secret, { now: now + WEBHOOK_SIGNATURE_TOLERANCE_S + 1 }), /300 s/);
    refused(() => verifyStandardWebhook(body, headers, secret, { now: now - WEBHOOK_SIGNATURE_TOLERANCE_S - 1 }), /300 s/);
    refused(() => verifyStandardWebhook(body, headers, secret, { now: now + 61, toleranceSeconds: 60 }), /60 s/);
    refused(() => verifyStandardWebhook(body, { ...headers, 'webhook-id': undefined }, secret, { now }), /no webhook-id/);
    refused(() => verifyStandardWebhook(body, { ...headers, 'webhook-timestamp': 'soon' }, secret, { now }), /not unix seconds/);
    refused(() => verifyStandardWebhook(body, { ...headers, 'webhook-signature': 'v2,abc' }, secret, { now }), /no v1,/);
    refused(() => verifyStandardWebhook(body, headers, [], { now }), /no secret/);
    refused(() => verifyStandardWebhook(body, headers, 'whsec_', { now }), /no secret is whsec_<base64>/);
    assert.equal(verifyStandardWebhook(body, headers, ['whsec_', 'whsec_not the secret', secret], { now }).id, 'evt_1', 'a secret that is not base64 does not stop the next');
    // Node hands header names in lower case; any case is found.
    assert.equal(
      verifyStandardWebhook(body, { 'Webhook-Id': 'evt_1', 'Webhook-Timestamp': String(now), 'Webhook-Signature': headers['webhook-signature'] }, secret, { now }).id,
      'evt_1',
    );
  });
});
