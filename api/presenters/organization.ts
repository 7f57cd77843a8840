import type { WalletBalance } from '../../db/ledger';
import type { OrganizationRow } from '../../db/repos/organizations';
import type { UserRow } from '../../db/repos/users';

export function presentOrganization(org: OrganizationRow) {
  return {
    id: org.id,
    object: 'organization' as const,
    name: org.name,
    plan: org.plan,
    enterprise: org.enterprise,
    paused: org.paused,
    rate_limit_per_minute: org.rate_limit_per_minute,
    created_at: org.created_at.toISOString(),
  };
}

export function presentUser(user: UserRow) {
  return {
    id: user.id,
    object: 'user' as const,
    name: user.name,
    email: user.email,
    role: user.role,
    created_at: user.created_at.toISOString(),
  };
}

export function presentBalance(organizationId: string, balance: WalletBalance) {
  return {
    object: 'balance' as const,
    organization_id: organizationId,
    available_credits: balance.availableCredits,
    reserved_credits: balance.reservedCredits,
  };
}
