// An organization's own provider keys (BYOK, api/presenters/provider-credential.ts): never the key,
// only a hint; and the answer of DELETE /v1/provider-credentials/{provider} (api/routes/provider-credentials.ts).

import { REAL_PROVIDERS } from '../../../domain/providers';
import { enumOf, listOf, timestamp } from './shared';

const provider = enumOf(REAL_PROVIDERS);

const ProviderCredential = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'provider', 'key_hint', 'created_at', 'updated_at'],
  properties: {
    object: { const: 'provider_credential' },
    provider,
    key_hint: { type: 'string', description: 'The last characters of the key, to tell keys apart; the key itself is never shown.' },
    created_at: timestamp,
    updated_at: timestamp,
  },
};

const DeletedProviderCredential = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'provider', 'deleted'],
  properties: { object: { const: 'provider_credential' }, provider, deleted: { const: true } },
};

export const PROVIDER_CREDENTIAL_SCHEMAS = { ProviderCredential, DeletedProviderCredential, ProviderCredentialList: listOf('ProviderCredential') };
