import type { WalletBalance } from '../../db/ledger';
import type { OrganizationRow } from '../../db/repos/organizations';

export function presentOrganization(org: OrganizationRow) {
  return {
    id: org.id,
    object: 'organization' as const,
    name: org.name,
    plan: org.plan,
    enterprise: org.enterprise,
    paused: org.paused,
    rate_limit_per_minute: org.rate_limit_per_minute,
    retention_days: org.retention_days ?? null,
    created_at: org.created_at.toISOString(),
  };
}

// The operator API shows the owner it creates in the same shape as GET /v1/users.
export { presentUser } from './user';

export function presentBalance(organizationId: string, balance: WalletBalance) {
  return {
    object: 'balance' as const,
    organization_id: organizationId,
    available_credits: balance.availableCredits,
    reserved_credits: balance.reservedCredits,
  };
}
