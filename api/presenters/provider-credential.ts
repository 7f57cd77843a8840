import type { ProviderCredentialRow } from '../../db/repos/provider-credentials';

/** An organization's own key for a provider (BYOK): never the key, only a hint to tell keys apart. */
export function presentProviderCredential(row: ProviderCredentialRow) {
  return {
    object: 'provider_credential' as const,
    provider: row.provider,
    key_hint: `…${row.key_hint}`,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
