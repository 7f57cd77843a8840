import type { ApiKeyRow } from '../../db/repos/api-keys';
import type { Role } from '../../domain/access';

/** An API key without its secret; creation responses add `secret` once. */
export function presentApiKey(key: ApiKeyRow, role: Role) {
  return {
    id: key.id,
    object: 'api_key' as const,
    name: key.name,
    environment: key.environment,
    prefix: key.prefix,
    scopes: key.scopes,
    role,
    monthly_budget_usd: key.monthly_budget_usd,
    ip_allowlist: key.ip_allowlist,
    created_at: key.created_at.toISOString(),
    revoked_at: key.revoked_at ? key.revoked_at.toISOString() : null,
  };
}
