import { createCipheriv, createDecipheriv, createHash, randomBytes, type CipherGCM } from 'node:crypto';

// Secrets at rest (webhook secrets, decisions §8; provider keys organizations bring, §7): they must
// be recoverable to sign or to call a provider, so they are encrypted, not hashed: AES-256-GCM, a
// fresh 12-byte IV per value, and the 16-byte tag checked on every open, so a value altered in the
// database is refused rather than used.
//
// Sealed format `v2.<kid>.<iv>.<tag>.<ciphertext>` (base64url parts): `kid` names the key that
// sealed it (the first bytes of the key's SHA-256), so a box holding several keys (the newest and
// older ones, during a rotation) opens each value with its own key and seals with the newest.
// Each value is bound to the row and column it lives in (AES-GCM associated data, `boundTo`, see
// lib/secret-bindings.ts): a sealed value copied into another row does not open there.
// `v1.<iv>.<tag>.<ciphertext>` (before key ids and bindings) still opens, with any configured key
// and no associated data, so an upgrade loses nothing; the re-seal (worker/reseal-secrets.ts)
// rewrites those as v2.

const CURRENT = 'v2';
const LEGACY = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 6;

export interface SecretBox {
  /** Seals with the newest key, bound to `boundTo`. */
  seal(plaintext: string, boundTo: string): string;
  /** Opens a value sealed with any of the box's keys and bound to `boundTo`; throws otherwise. */
  open(sealed: string, boundTo: string): string;
  /** The prefix of every value sealed with the newest key: a value without it needs re-sealing. */
  readonly currentPrefix: string;
}

interface BoxKey {
  id: string;
  raw: Buffer;
}

/** The key id in sealed values: first bytes of the key's SHA-256, base64url. */
export function secretKeyId(raw: Buffer): string {
  return createHash('sha256').update(raw).digest().subarray(0, KEY_ID_BYTES).toString('base64url');
}

/** The raw bytes of a key given as base64 of 32 bytes, or undefined when it is not one. */
export function parseSecretBoxKey(key: string): Buffer | undefined {
  const raw = Buffer.from(key, 'base64');
  return raw.length === 32 ? raw : undefined;
}

/**
 * `keys`: base64 of 32 random bytes each (generateSecretBoxKey), the newest first; it seals, and
 * every key opens what it sealed.
 */
export function createSecretBox(keys: string | readonly string[]): SecretBox {
  const list = typeof keys === 'string' ? [keys] : keys;
  if (list.length === 0) throw new Error('a secret box needs at least one key');
  const boxKeys: BoxKey[] = list.map((key) => {
    const raw = parseSecretBoxKey(key);
    if (!raw) throw new Error('WEBHOOK_SECRETS_KEY and PROVIDER_SECRETS_KEY (and their _PREVIOUS lists) must be base64 of 32 random bytes (e.g. `openssl rand -base64 32`).');
    return { id: secretKeyId(raw), raw };
  });
  const newest = boxKeys[0]!;

  function decipher(key: Buffer, iv: string, tag: string, ciphertext: string, boundTo: string | undefined): string {
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    // A shorter tag would be accepted by GCM and is far easier to forge: only the full tag opens.
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new Error('not a sealed secret');
    const d = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
    if (boundTo !== undefined) d.setAAD(Buffer.from(boundTo, 'utf8'));
    d.setAuthTag(tagBytes);
    return Buffer.concat([d.update(Buffer.from(ciphertext, 'base64url')), d.final()]).toString('utf8');
  }

  return {
    currentPrefix: `${CURRENT}.${newest.id}.`,
    seal(plaintext, boundTo) {
      const iv = randomBytes(IV_BYTES);
      const cipher: CipherGCM = createCipheriv('aes-256-gcm', newest.raw, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [CURRENT, newest.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    open(sealed, boundTo) {
      const parts = sealed.split('.');
      if (parts[0] === CURRENT && parts.length === 5) {
        const [, kid, iv, tag, ciphertext] = parts as [string, string, string, string, string];
        const key = boxKeys.find((k) => k.id === kid);
        if (!key) throw new Error(`this secret was sealed with a key that is not configured (key id ${kid})`);
        return decipher(key.raw, iv, tag, ciphertext, boundTo);
      }
      if (parts[0] === LEGACY && parts.length === 4) {
        const [, iv, tag, ciphertext] = parts as [string, string, string, string];
        for (const key of boxKeys) {
          try {
            return decipher(key.raw, iv, tag, ciphertext, undefined);
          } catch {
            // Not this key: v1 values name none, so each configured key is tried.
          }
        }
        throw new Error('this secret (v1) opens with none of the configured keys');
      }
      throw new Error('not a sealed secret');
    },
  };
}

/** A box of `keys` (the newest first), or undefined without any: that kind of secret is off. */
export function secretBoxOf(keys: readonly string[]): SecretBox | undefined {
  return keys.length > 0 ? createSecretBox(keys) : undefined;
}

export function generateSecretBoxKey(): string {
  return randomBytes(32).toString('base64');
}
