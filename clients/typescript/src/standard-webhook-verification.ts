import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './types.js';
import { checkTimestamp, parseEvent, WebhookVerificationError, type VerifyWebhookOptions } from './webhook-verification.js';

// Verifies the Standard Webhooks headers (https://www.standardwebhooks.com) each delivery also
// carries beside X-Service-Signature, the way the service signs them (its
// domain/webhook-signature.ts, re-implemented here because the client is a separate package):
// `webhook-id` (the event's id), `webhook-timestamp` (unix seconds) and `webhook-signature`,
// space-separated `v1,<base64 HMAC-SHA-256 of "<id>.<timestamp>.<raw body>">`, one per live secret
// during a rotation, keyed with the bytes the secret's base64 part (after `whsec_`) decodes to.
// Same rules as verifyWebhook: any signature matching any secret passes, constant-time comparisons,
// a timestamp further than the tolerance from now is refused.

/** Request headers as Node (`req.headers`, lower-case names) or fetch (`Headers`) hands them over. */
export type StandardWebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const SECRET_PREFIX = 'whsec_';

function header(headers: StandardWebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value as readonly string[]).join(' ') : (value as string | undefined);
}

/** The HMAC key of a secret: its base64 part, decoded; nothing for one that decodes to no bytes (it matches nothing). */
function keyOf(secret: string): Buffer | undefined {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? key : undefined;
}

function signaturesOf(value: string): Buffer[] {
  const signatures: Buffer[] = [];
  for (const part of value.split(' ')) {
    const [version, signature] = part.split(',', 2);
    if (version === 'v1' && signature && /^[A-Za-z0-9+/]{43}=$/.test(signature)) signatures.push(Buffer.from(signature, 'base64'));
  }
  if (signatures.length === 0) throw new WebhookVerificationError('the webhook-signature header has no v1,<signature>');
  return signatures;
}

/**
 * Checks the `webhook-id`, `webhook-timestamp` and `webhook-signature` headers against the raw
 * request body (exactly the bytes received, before any JSON parsing) and returns the parsed event.
 * `secret` is the subscription's `whsec_…` secret as shown (or all live ones during a rotation).
 */
export function verifyStandardWebhook(
  rawBody: string | Uint8Array,
  headers: StandardWebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatureHeader = header(headers, 'webhook-signature');
  if (!id || !timestampText || !signatureHeader) throw new WebhookVerificationError('no webhook-id, webhook-timestamp and webhook-signature headers');
  if (!/^\d+$/.test(timestampText)) throw new WebhookVerificationError('the webhook-timestamp header is not unix seconds');
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('no secret to verify with');
  const keys = secrets.map(keyOf).filter((key) => key !== undefined);
  if (keys.length === 0) throw new WebhookVerificationError('no secret is whsec_<base64>: no Standard Webhooks key derives from it');
  const timestamp = Number(timestampText);
  checkTimestamp(timestamp, options);
  const signatures = signaturesOf(signatureHeader);

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  let matched = false;
  for (const key of keys) {
    const expected = createHmac('sha256', key).update(signed).digest();
    // Every pair is compared (no early exit) so the time taken says nothing about which matched.
    for (const candidate of signatures) matched = timingSafeEqual(expected, candidate) || matched;
  }
  if (!matched) throw new WebhookVerificationError('no signature matches the id, timestamp, body and secret');
  return parseEvent(body);
}
