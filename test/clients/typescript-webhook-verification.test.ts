import assert from 'node:assert/strict';
import fc from 'fast-check';
import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/index';
import { newWebhookSecret, signWebhookPayload, WEBHOOK_SIGNATURE_TOLERANCE_S } from '../../domain/webhook-signature';

// The client re-implements the service's signature check (it cannot import domain/): here the two
// are held together. Whatever the service signs, verifyWebhook accepts with any live secret, and
// refuses once one byte of the body, the secret or the timestamp's freshness is wrong.

const now = 1_800_000_000;
const event = (text: string) => JSON.stringify({ id: 'evt_1', type: 'generation.completed', created_at: '2027-01-15T08:00:00.000Z', data: { generation_id: text } });

describe('the TypeScript client’s verifyWebhook', () => {
  it('accepts what the service signs, with each of the live secrets, and returns the event', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: -300, max: 300 }), (text, count, skew) => {
        const secrets = Array.from({ length: count }, newWebhookSecret);
        const body = event(text);
        const header = signWebhookPayload({ secrets, timestamp: now + skew, body });
        for (const secret of secrets) assert.equal((verifyWebhook(body, header, secret, { now }).data as { generation_id: string }).generation_id, text);
        assert.equal(verifyWebhook(Buffer.from(body), header, [newWebhookSecret(), secrets.at(-1)!], { now }).type, 'generation.completed');
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a changed body, another secret, a stale timestamp and a malformed header', () => {
    const secret = newWebhookSecret();
    const body = event('gen_1');
    const header = signWebhookPayload({ secrets: [secret], timestamp: now, body });
    const refused = (f: () => unknown, message: RegExp) => assert.throws(f, (e: unknown) => e instanceof WebhookVerificationError && message.test(e.message));
    refused(() => verifyWebhook(body.replace('gen_1', 'gen_2'), header, secret, { now }), /no signature matches/);
    refused(() => verifyWebhook(body, header, newWebhookSecret(), { now }), /no signature matches/);
    refused(() => verifyWebhook(body, header, secret, { now: now + WEBHOOK_SIGNATURE_TOLERANCE_S + 1 }), /300 s/);
    refused(() => verifyWebhook(body, header, secret, { now: now + 61, toleranceSeconds: 60 }), /60 s/);
    refused(() => verifyWebhook(body, header.replace(/t=\d+,/, ''), secret, { now }), /no t=/);
    refused(() => verifyWebhook(body, `t=${now}`, secret, { now }), /no v1=/);
    refused(() => verifyWebhook(body, undefined, secret, { now }), /no signature header/);
    refused(() => verifyWebhook(body, header, [], { now }), /no secret/);
  });
});
