import { createHmac } from 'node:crypto';
import { randomBase62 } from '../lib/ids';

// The webhook signatures. Every delivery carries two schemes, signed with the same secrets and the
// same timestamp:
// - ours (spec §6): `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">`,
//   keyed with the subscription's secret as text: the scheme Stripe's receiver libraries verify;
// - Standard Webhooks (https://www.standardwebhooks.com, issue 41): `webhook-id` (the event's id),
//   `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA-256 of "<id>.<t>.<raw body>">`,
//   keyed with the bytes the secret's base64 part decodes to: what the stock libraries
//   (`standardwebhooks` for Node, Python, Go, …) derive from the very `whsec_…` string the user holds.
// During a secret rotation a delivery carries one signature per live secret in each scheme; a
// receiver accepts any that matches.

/** Receivers reject a timestamp further than this from their clock (replay protection; Standard Webhooks' libraries use the same). */
export const WEBHOOK_SIGNATURE_TOLERANCE_S = 300;

const SECRET_PREFIX = 'whsec_';

export function signWebhookPayload(args: { secrets: string[]; timestamp: number; body: string }): string {
  const signed = `${args.timestamp}.${args.body}`;
  const signatures = args.secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`);
  return [`t=${args.timestamp}`, ...signatures].join(',');
}

/**
 * The Standard Webhooks key of a secret: its part after `whsec_`, base64-decoded. Ours (40 base62
 * characters) is canonical base64 of 30 bytes, so every library decodes it alike; a secret that is
 * not would give receivers another key than ours, so it is refused rather than signed with.
 */
function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0 || key.toString('base64') !== encoded) throw new Error('a webhook secret is not whsec_ and canonical base64: no Standard Webhooks key derives from it');
  return key;
}

/** `webhook-signature`: `v1,<base64>` per secret, space-separated. */
export function signStandardWebhook(args: { secrets: string[]; id: string; timestamp: number; body: string }): string {
  const signed = `${args.id}.${args.timestamp}.${args.body}`;
  return args.secrets.map((secret) => `v1,${createHmac('sha256', standardWebhookKey(secret)).update(signed, 'utf8').digest('base64')}`).join(' ');
}

/** The three Standard Webhooks headers of one attempt of the event `id`. */
export function standardWebhookHeaders(args: { secrets: string[]; id: string; timestamp: number; body: string }): Record<string, string> {
  return {
    'webhook-id': args.id,
    'webhook-timestamp': String(args.timestamp),
    'webhook-signature': signStandardWebhook(args),
  };
}

/** `whsec_` and 40 base62 characters (about 238 bits); also canonical base64 of 30 bytes, the Standard Webhooks key. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBase62(40)}`;
}
