import type { Knex } from 'knex';
import type { RealProvider } from '../../domain/providers';
import type { Db } from '../knex';

// The provider keys an Enterprise organization brings (BYOK, db/migrations/0014-providers.ts).
// The key is stored sealed (lib/secret-box.ts) and only the worker opens it, to call the provider.

export interface ProviderCredentialRow {
  organization_id: string;
  provider: RealProvider;
  key_hint: string;
  created_at: Date;
  updated_at: Date;
}

const LISTED = ['organization_id', 'provider', 'key_hint', 'created_at', 'updated_at'];

export function createProviderCredentialsRepo(knex: Knex) {
  return {
    /** Stores or replaces the organization's key for a provider. */
    async upsert(row: { organizationId: string; provider: RealProvider; sealedApiKey: string; keyHint: string }, trx: Db = knex): Promise<ProviderCredentialRow> {
      const [saved] = await trx('provider_credentials')
        .insert({ organization_id: row.organizationId, provider: row.provider, sealed_api_key: row.sealedApiKey, key_hint: row.keyHint })
        .onConflict(['organization_id', 'provider'])
        .merge({ sealed_api_key: row.sealedApiKey, key_hint: row.keyHint, updated_at: trx.fn.now() })
        .returning(LISTED);
      return saved;
    },

    async list(organizationId: string, trx: Db = knex): Promise<ProviderCredentialRow[]> {
      return trx('provider_credentials').where({ organization_id: organizationId }).orderBy('provider').select(LISTED);
    },

    /** True when there was a key to delete. */
    async delete(organizationId: string, provider: RealProvider, trx: Db = knex): Promise<boolean> {
      return (await trx('provider_credentials').where({ organization_id: organizationId, provider }).delete()) > 0;
    },

    /** The sealed key, for the worker only. */
    async findSealed(organizationId: string, provider: RealProvider, trx: Db = knex): Promise<string | undefined> {
      const row = await trx('provider_credentials').where({ organization_id: organizationId, provider }).first('sealed_api_key');
      return row?.sealed_api_key;
    },
  };
}
