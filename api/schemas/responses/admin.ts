// The operator API's answers (api/routes/admin.ts): an organization with its balance, and the
// organization just created with its owner and the owner's first keys (their secrets shown once).

import { PLANS } from '../../../domain/plans';
import { enumOf, id, ref, timestamp } from './shared';

/** api/presenters/organization.ts `presentOrganization`. */
const organizationProperties = {
  id,
  object: { const: 'organization' },
  name: { type: 'string' },
  plan: enumOf(PLANS),
  enterprise: { type: 'boolean' },
  paused: { type: 'boolean', description: 'A paused organization (e.g. after a spending anomaly) cannot start generations.' },
  rate_limit_per_minute: { type: ['integer', 'null'], description: "Requests per minute for its keys; null: the plan's default." },
  retention_days: {
    type: ['integer', 'null'],
    description: "Days its jobs' output files are kept when a request names no `retention`; null: the plan's default (OUTPUT_RETENTION_DAYS).",
  },
  created_at: timestamp,
  balance: ref('OrganizationBalance'),
};
const organizationRequired = Object.keys(organizationProperties);

const Organization = { type: 'object', additionalProperties: false, required: organizationRequired, properties: organizationProperties };

const CreatedOrganization = {
  type: 'object',
  additionalProperties: false,
  required: [...organizationRequired, 'owner', 'api_keys'],
  properties: {
    ...organizationProperties,
    owner: ref('User'),
    api_keys: { type: 'array', items: ref('ApiKeyWithSecret'), description: "The owner's live and test keys, with their secrets: shown only this once." },
  },
};

export const ADMIN_SCHEMAS = { Organization, CreatedOrganization };
