import { createHmac } from 'node:crypto';
import { randomBase62 } from '../lib/ids';

// The webhook signature (spec §6): `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">`,
// keyed with the subscription's secret: the scheme Stripe's receiver libraries verify. During a
// secret rotation a delivery carries one `v1=` per live secret; a receiver accepts any that matches.

/** Receivers reject a timestamp further than this from their clock (replay protection). */
export const WEBHOOK_SIGNATURE_TOLERANCE_S = 300;

export function signWebhookPayload(args: { secrets: string[]; timestamp: number; body: string }): string {
  const signed = `${args.timestamp}.${args.body}`;
  const signatures = args.secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`);
  return [`t=${args.timestamp}`, ...signatures].join(',');
}

/** `whsec_` and 40 base62 characters (about 238 bits). */
export function newWebhookSecret(): string {
  return `whsec_${randomBase62(40)}`;
}
