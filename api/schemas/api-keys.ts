import { ROLES, SCOPES, type Role, type Scope } from '../../domain/access';
import type { Environment } from '../../domain/generation-status';
import { compileValidator } from './ajv';

const name = { type: 'string', minLength: 1, maxLength: 200 };
/** Whole cents (maxDecimals in ./ajv.ts: multipleOf 0.01 refuses 19.99 to floating point). */
const budget = { type: ['number', 'null'], minimum: 0, maximum: 1_000_000_000, maxDecimals: 2 };

export interface CreateApiKeyRequest {
  name: string;
  environment?: Environment;
  scopes?: Scope[];
  monthly_budget_usd?: number | null;
  /** No higher than the creator's role; omitted: the creator's (decisions §3). */
  role?: Role;
}

export const parseCreateApiKey = compileValidator<CreateApiKeyRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name,
    environment: { type: 'string', enum: ['live', 'test'] },
    scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] }, uniqueItems: true, maxItems: SCOPES.length },
    monthly_budget_usd: budget,
    role: { type: 'string', enum: [...ROLES] },
  },
});

export const MAX_ALLOWLIST_ENTRIES = 100;

export interface UpdateApiKeyRequest {
  name?: string;
  monthly_budget_usd?: number | null;
  /** CIDR ranges, IPv4 and IPv6 (spec §4); [] removes the allowlist. */
  ipAllowlist?: string[];
}

export const parseUpdateApiKey = compileValidator<UpdateApiKeyRequest>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name,
    monthly_budget_usd: budget,
    ipAllowlist: { type: 'array', maxItems: MAX_ALLOWLIST_ENTRIES, items: { type: 'string', minLength: 1, maxLength: 64 } },
  },
});
