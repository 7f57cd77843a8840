import type { ApiKeyRow, KeyPrincipal } from '../../db/repos/api-keys';
import type { Role } from '../../domain/access';
import { PLAN_MULTIPLIER_TENTHS } from '../../domain/plans';
import { creditsToUsd } from '../../domain/pricing';

/**
 * An API key without its secret; creation responses add `secret` once. `spentCredits`: what the key
 * spent this UTC month, reservations in flight included (what its budget is checked against).
 */
export function presentApiKey(key: ApiKeyRow, role: Role, spentCredits: number) {
  return {
    id: key.id,
    object: 'api_key' as const,
    name: key.name,
    environment: key.environment,
    prefix: key.prefix,
    scopes: key.scopes,
    role,
    monthly_budget_usd: key.monthly_budget_usd,
    spent_usd_this_month: creditsToUsd(spentCredits),
    ip_allowlist: key.ip_allowlist,
    created_at: key.created_at.toISOString(),
    revoked_at: key.revoked_at ? key.revoked_at.toISOString() : null,
  };
}

/**
 * `GET /v1/api-keys/current`: the calling key as `presentApiKey` shows it (its effective role, so
 * what it may do) and the organization it acts for, so a client such as the dashboard can show
 * who is signed in and hide what the key may not do.
 */
export function presentCurrentApiKey(key: ApiKeyRow, principal: KeyPrincipal, spentCredits: number) {
  return {
    ...presentApiKey(key, principal.role, spentCredits),
    organization: {
      id: principal.organizationId,
      plan: principal.plan,
      multiplier: PLAN_MULTIPLIER_TENTHS[principal.plan] / 10,
      enterprise: principal.enterprise,
      paused: principal.paused,
    },
  };
}
