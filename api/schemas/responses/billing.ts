// Money as the API shows it: an organization's balance (api/presenters/organization.ts), a key's
// view of it (api/presenters/balance.ts) and usage reports (api/presenters/usage.ts).

import { PLANS } from '../../../domain/plans';
import { USAGE_GROUPINGS } from '../../../domain/usage-period';
import { credits, enumOf, id, ref } from './shared';

const balanceProperties = {
  object: { const: 'balance' },
  organization_id: id,
  available_credits: credits('Credits that can be spent now'),
  reserved_credits: credits('Credits held by generations in flight'),
};
const balanceRequired = ['object', 'organization_id', 'available_credits', 'reserved_credits'];

/** The wallet of an organization, as the operator API shows it. */
const OrganizationBalance = { type: 'object', additionalProperties: false, required: balanceRequired, properties: balanceProperties };

const Balance = {
  type: 'object',
  description: 'The wallet a key spends from; a test key sees the sandbox allowance instead, priced as live.',
  additionalProperties: false,
  required: [...balanceRequired, 'plan', 'multiplier', 'livemode'],
  properties: {
    ...balanceProperties,
    plan: enumOf(PLANS),
    multiplier: { type: 'number', description: "The plan's price multiplier applied to every model's credits per unit." },
    livemode: { type: 'boolean', description: 'false for a test key: the figures are the sandbox, not the wallet.' },
  },
};

const date = { type: 'string', format: 'date' };

const UsageRow = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'generations', 'credits_charged', 'credits_refunded', 'usd'],
  properties: {
    key: { type: 'string', description: 'The group: a day (YYYY-MM-DD), a model, an API key id or a modality.' },
    generations: { type: 'integer' },
    credits_charged: credits('Credits charged'),
    credits_refunded: credits('Credits refunded'),
    usd: { type: 'number', description: 'credits_charged in US dollars.' },
  },
};

const Usage = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'group_by', 'from', 'to', 'data'],
  properties: {
    object: { const: 'list' },
    group_by: enumOf(USAGE_GROUPINGS),
    from: { ...date, description: 'The first day covered (UTC, inclusive).' },
    to: { ...date, description: 'The last day covered (UTC, inclusive).' },
    data: { type: 'array', items: ref('UsageRow') },
  },
};

export const BILLING_SCHEMAS = {
  Balance,
  OrganizationBalance,
  CreditAdjustment: { ...OrganizationBalance, description: "The organization's balance after the adjustment." },
  Usage,
  UsageRow,
};
