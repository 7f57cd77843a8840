import type { KeyPrincipal } from '../../db/repos/api-keys';
import { roleAllows, type Role } from '../../domain/access';
import { ApiError } from '../errors';

// The two rules of decisions §3 that keep roles from growing, shared by /v1/api-keys and /v1/users.
// "Above" compares with the calling key's role, which is the lower of its own and its user's.

/** Nobody hands out a role above their own: not to a new key, not to a user. */
export function assertMayGrant(principal: KeyPrincipal, role: Role): void {
  if (roleAllows(principal.role, role)) return;
  throw new ApiError('insufficient_role', `This key has the ${principal.role} role and cannot grant ${role}; ask someone with the ${role} role.`, { param: 'role' });
}

/** Nobody changes, revokes or deactivates what ranks above them (an admin and an owner's key, say). */
export function assertMayManage(principal: KeyPrincipal, target: { role: Role; describe: string }): void {
  if (roleAllows(principal.role, target.role)) return;
  throw new ApiError(
    'insufficient_role',
    `${target.describe} has the ${target.role} role, above this key's ${principal.role} role; only someone with the ${target.role} role can change it.`,
  );
}
