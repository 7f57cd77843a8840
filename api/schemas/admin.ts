import { PLANS, type Plan } from '../../domain/plans';
import { compileValidator } from './ajv';

export const MAX_CREDIT_AMOUNT = 1_000_000_000_000;

export interface CreateOrganizationRequest {
  name: string;
  plan: Plan;
  enterprise?: boolean;
  credits?: number;
}

export const parseCreateOrganization = compileValidator<CreateOrganizationRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['name', 'plan'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    plan: { type: 'string', enum: [...PLANS] },
    enterprise: { type: 'boolean' },
    credits: { type: 'integer', minimum: 0, maximum: MAX_CREDIT_AMOUNT },
  },
});

export interface UpdateOrganizationRequest {
  plan?: Plan;
  enterprise?: boolean;
  paused?: boolean;
  rate_limit_per_minute?: number | null;
  retention_days?: number | null;
}

export const parseUpdateOrganization = compileValidator<UpdateOrganizationRequest>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    plan: { type: 'string', enum: [...PLANS] },
    enterprise: { type: 'boolean' },
    paused: { type: 'boolean' },
    // null returns the organization to RATE_LIMIT_PER_MINUTE.
    rate_limit_per_minute: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000 },
    // How long its jobs' output files are kept when a request names no `retention`; null returns it
    // to its plan's OUTPUT_RETENTION_DAYS (domain/output-retention.ts).
    retention_days: { type: ['integer', 'null'], minimum: 1, maximum: 365 },
  },
});

export interface AdjustCreditsRequest {
  amount: number;
  reason: string;
}

export const parseAdjustCredits = compileValidator<AdjustCreditsRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'reason'],
  properties: {
    amount: { type: 'integer', minimum: -MAX_CREDIT_AMOUNT, maximum: MAX_CREDIT_AMOUNT, not: { const: 0 } },
    reason: { type: 'string', minLength: 1, maxLength: 500 },
  },
});
