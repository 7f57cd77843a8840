import { createHash } from 'node:crypto';
import type { Environment } from './generation-status';
import { randomBase62 } from '../lib/ids';

// API key secrets: `sk_live_` or `sk_test_` + 43 base62 characters (about 256 bits). Only the
// SHA-256 of a secret is ever stored (spec §5).

const SECRET_BODY_LENGTH = 43;
export const KEY_PREFIX_LENGTH = 12;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateApiKeySecret(environment: Environment): { secret: string; prefix: string; secretHash: string } {
  const secret = `sk_${environment}_${randomBase62(SECRET_BODY_LENGTH)}`;
  return { secret, prefix: secret.slice(0, KEY_PREFIX_LENGTH), secretHash: hashSecret(secret) };
}

export function environmentOfSecret(secret: string): Environment | undefined {
  if (secret.startsWith('sk_live_')) return 'live';
  if (secret.startsWith('sk_test_')) return 'test';
  return undefined;
}
