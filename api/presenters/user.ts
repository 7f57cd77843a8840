import type { UserRow } from '../../db/repos/users';

/** A user of an organization (decisions §3); a deactivated one keeps its row and shows when. */
export function presentUser(user: UserRow) {
  return {
    id: user.id,
    object: 'user' as const,
    name: user.name,
    email: user.email,
    role: user.role,
    created_at: user.created_at.toISOString(),
    deactivated_at: user.deactivated_at ? user.deactivated_at.toISOString() : null,
  };
}
