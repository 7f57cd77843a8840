import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { generateSecretBoxKey } from '../lib/secret-box';

// The secrets a local stack (`npm start`, `npm run stack:prod`) runs with, generated once and kept
// in its git-ignored data folder, so restarts keep their tokens and can still decrypt what was
// encrypted with the key.

export interface LocalSecrets {
  adminToken: string;
  urlSigningSecret: string;
  /** Encrypts webhook secrets at rest (WEBHOOK_SECRETS_KEY). */
  webhookSecretsKey: string;
  /** Encrypts the provider keys organizations bring at rest (PROVIDER_SECRETS_KEY): a key of its own. */
  providerSecretsKey: string;
  /**
   * In a data folder from before BYOK had a key of its own: the webhook key, which sealed the
   * provider keys stored then (PROVIDER_SECRETS_KEY_PREVIOUS); the worker re-seals those.
   */
  providerSecretsPreviousKeys?: string[];
}

export async function readJson<T>(file: string): Promise<T | undefined> {
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as T) : undefined;
}

export function generateLocalSecrets(): LocalSecrets {
  return {
    adminToken: `adm_${randomBytes(24).toString('hex')}`,
    urlSigningSecret: randomBytes(32).toString('hex'),
    webhookSecretsKey: generateSecretBoxKey(),
    providerSecretsKey: generateSecretBoxKey(),
  };
}

/** The secrets kept in `file`, completed and written back when some are missing. */
export async function localSecrets(file: string): Promise<LocalSecrets> {
  const existing = await readJson<Partial<LocalSecrets>>(file);
  if (existing?.adminToken && existing.urlSigningSecret && existing.webhookSecretsKey && existing.providerSecretsKey) return existing as LocalSecrets;
  // A data folder from before webhooks (or before BYOK had its own key) keeps its secrets and gains
  // the missing keys.
  const secrets: LocalSecrets = { ...generateLocalSecrets(), ...existing };
  if (existing?.webhookSecretsKey && !existing.providerSecretsKey) secrets.providerSecretsPreviousKeys = [existing.webhookSecretsKey];
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
