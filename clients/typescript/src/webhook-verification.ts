import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './types.js';

// Verifies a webhook delivery the way the service signs it (its domain/webhook-signature.ts,
// re-implemented here because the client is a separate package): the header is
// `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">`, with one `v1=` per live secret
// while a secret is being rotated. Any `v1` matching any given secret passes; comparisons are
// constant-time; a timestamp further than the tolerance from now is refused (replay protection).
// The Standard Webhooks headers each delivery also carries are checked by verifyStandardWebhook
// (standard-webhook-verification.ts), with the same tolerance rule and errors from here.

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyWebhookOptions {
  /** How far the signature's timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time in unix seconds (default: the clock). */
  now?: number;
}

const DEFAULT_TOLERANCE_S = 300;

function parseHeader(header: string): { timestamp: number; signatures: Buffer[] } {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined) throw new WebhookVerificationError('the signature header has no t=<timestamp>');
  if (signatures.length === 0) throw new WebhookVerificationError('the signature header has no v1=<signature>');
  return { timestamp, signatures };
}

/** Refuses a signature timestamp further than the tolerance from now, either way (replay protection). */
export function checkTimestamp(timestamp: number, options: VerifyWebhookOptions): void {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_S;
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookVerificationError(`the signature's timestamp is more than ${tolerance} s from now`);
}

export function parseEvent(body: Buffer): WebhookEvent {
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}

/**
 * Checks `signatureHeader` (the request's X-Service-Signature header) against the raw request body
 * (exactly the bytes received, before any JSON parsing) and returns the parsed event. For the
 * Standard Webhooks headers of the same delivery use verifyStandardWebhook.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  if (!signatureHeader) throw new WebhookVerificationError('no signature header');
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('no secret to verify with');
  const { timestamp, signatures } = parseHeader(signatureHeader);
  checkTimestamp(timestamp, options);

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]);
  let matched = false;
  for (const key of secrets) {
    const expected = createHmac('sha256', key).update(signed).digest();
    // Every pair is compared (no early exit) so the time taken says nothing about which matched.
    for (const candidate of signatures) matched = timingSafeEqual(expected, candidate) || matched;
  }
  if (!matched) throw new WebhookVerificationError('no signature matches the body and secret');
  return parseEvent(body);
}
