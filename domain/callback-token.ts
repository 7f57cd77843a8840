import { createHmac, timingSafeEqual } from 'node:crypto';
import { DEFAULT_GENERATION_TIMEOUTS } from './generation-timeouts';

// The token in a provider callback URL: an HMAC of the generation id and the URL's expiry under
// URL_SIGNING_SECRET. A callback is only a hint to poll now (the result is always fetched from the
// provider's API), so the token just keeps strangers from making the service poll on their behalf;
// the expiry makes a leaked URL useless once its job can no longer be running.

/** Added to the job's own deadline: the provider's last callback may arrive a little after it. */
export const CALLBACK_EXPIRY_MARGIN_MS = 5 * 60 * 1000;

/**
 * How long a callback URL is valid from the moment it is built, which is when its job is submitted:
 * the longest an async job may run (the async job timeout every generation is started with), plus
 * the margin.
 */
export const CALLBACK_URL_LIFETIME_MS = DEFAULT_GENERATION_TIMEOUTS.asyncJobTimeoutMs + CALLBACK_EXPIRY_MARGIN_MS;

const tokenOf = (secret: string, generationId: string, expires: number) => createHmac('sha256', secret).update(`provider-callback\n${generationId}\n${expires}`).digest('hex');

/** `/v1/provider-callbacks/{id}?expires=<epoch s>&token=…`, valid until `expiresAt`. */
export function providerCallbackUrl(publicBaseUrl: string, secret: string, generationId: string, expiresAt = new Date(Date.now() + CALLBACK_URL_LIFETIME_MS)): string {
  const expires = Math.ceil(expiresAt.getTime() / 1000);
  return `${publicBaseUrl}/v1/provider-callbacks/${generationId}?expires=${expires}&token=${tokenOf(secret, generationId, expires)}`;
}

/** True for a token this service signed for this generation and expiry, while that expiry is after `now`. */
export function verifyProviderCallbackToken(secret: string, generationId: string, expires: unknown, token: unknown, now: Date): boolean {
  if (typeof expires !== 'string' || !/^[0-9]{1,12}$/.test(expires)) return false;
  if (typeof token !== 'string' || !/^[0-9a-f]{64}$/.test(token)) return false;
  const expiresS = Number(expires);
  if (expiresS * 1000 <= now.getTime()) return false;
  return timingSafeEqual(Buffer.from(tokenOf(secret, generationId, expiresS), 'hex'), Buffer.from(token, 'hex'));
}
