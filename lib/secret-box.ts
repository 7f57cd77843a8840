import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Webhook secrets at rest (decisions §8): they must be recoverable to sign deliveries, so they are
// encrypted, not hashed: AES-256-GCM under WEBHOOK_SECRETS_KEY, a fresh 12-byte IV per secret, and
// the tag checked on every open, so a row altered in the database is refused rather than used.

const VERSION = 'v1';

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/** `key`: base64 of 32 random bytes (generateSecretBoxKey). */
export function createSecretBox(key: string): SecretBox {
  const raw = Buffer.from(key, 'base64');
  if (raw.length !== 32) throw new Error('WEBHOOK_SECRETS_KEY and PROVIDER_SECRETS_KEY must be base64 of 32 random bytes (e.g. `openssl rand -base64 32`).');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', raw, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', raw, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

export function generateSecretBoxKey(): string {
  return randomBytes(32).toString('base64');
}
