// Who calls the API: API keys (api/presenters/api-key.ts; the secret only on creation) and the
// users of an organization (api/presenters/user.ts).

import { ROLES, SCOPES } from '../../../domain/access';
import { ENVIRONMENTS } from '../../../domain/generation-status';
import { PLANS } from '../../../domain/plans';
import { enumOf, id, listOf, nullableString, nullableTimestamp, timestamp } from './shared';

const apiKeyProperties = {
  id,
  object: { const: 'api_key' },
  name: { type: 'string' },
  environment: enumOf(ENVIRONMENTS, '`test` keys run on the simulator and spend the sandbox, never the wallet.'),
  prefix: { type: 'string', description: 'The first characters of the secret, to tell keys apart.' },
  scopes: { type: 'array', items: enumOf(SCOPES) },
  role: enumOf(ROLES, "The key's effective role: its own cap, or its user's role."),
  monthly_budget_usd: { type: ['number', 'null'], description: 'The most the key may spend per UTC month; null: no budget.' },
  spent_usd_this_month: { type: 'number', description: 'What the key spent this UTC month, reservations in flight included.' },
  ip_allowlist: { type: 'array', items: { type: 'string' }, description: 'Addresses or CIDR ranges the key may be used from; empty: any.' },
  created_at: timestamp,
  revoked_at: nullableTimestamp,
};
const apiKeyRequired = Object.keys(apiKeyProperties);

const ApiKey = { type: 'object', additionalProperties: false, required: apiKeyRequired, properties: apiKeyProperties };

const ApiKeyWithSecret = {
  type: 'object',
  additionalProperties: false,
  required: [...apiKeyRequired, 'secret'],
  properties: { ...apiKeyProperties, secret: { type: 'string', description: 'The whole key. Shown only this once: store it now.' } },
};

const CurrentApiKey = {
  type: 'object',
  additionalProperties: false,
  required: [...apiKeyRequired, 'organization'],
  properties: {
    ...apiKeyProperties,
    organization: {
      type: 'object',
      additionalProperties: false,
      description: 'The organization the key acts for.',
      required: ['id', 'plan', 'multiplier', 'enterprise', 'paused'],
      properties: {
        id,
        plan: enumOf(PLANS),
        multiplier: { type: 'number', description: "The plan's price multiplier." },
        enterprise: { type: 'boolean', description: 'Enterprise features (IP allowlists, own provider keys) are enabled.' },
        paused: { type: 'boolean', description: 'The operator paused the organization: creations are refused until it is resumed.' },
      },
    },
  },
};

const User = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'name', 'email', 'role', 'created_at', 'deactivated_at'],
  properties: {
    id,
    object: { const: 'user' },
    name: { type: 'string' },
    email: nullableString,
    role: enumOf(ROLES),
    created_at: timestamp,
    deactivated_at: { ...nullableTimestamp, description: 'When the user was deactivated; their keys stop working from then on.' },
  },
};

export const ACCESS_SCHEMAS = { ApiKey, ApiKeyWithSecret, CurrentApiKey, ApiKeyList: listOf('ApiKey'), User, UserList: listOf('User') };
