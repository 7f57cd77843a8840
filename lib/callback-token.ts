import { createHmac, timingSafeEqual } from 'node:crypto';

// The token in a provider callback URL: an HMAC of the generation id under URL_SIGNING_SECRET. A
// callback is only a hint to poll now (the result is always fetched from the provider's API), so
// the token just keeps strangers from making the service poll on their behalf.

const tokenOf = (secret: string, generationId: string) =>
  createHmac('sha256', secret).update(`provider-callback\n${generationId}`).digest('hex');

export function providerCallbackUrl(publicBaseUrl: string, secret: string, generationId: string): string {
  return `${publicBaseUrl}/v1/provider-callbacks/${generationId}?token=${tokenOf(secret, generationId)}`;
}

export function verifyProviderCallbackToken(secret: string, generationId: string, token: unknown): boolean {
  if (typeof token !== 'string' || !/^[0-9a-f]{64}$/.test(token)) return false;
  return timingSafeEqual(Buffer.from(tokenOf(secret, generationId), 'hex'), Buffer.from(token, 'hex'));
}
