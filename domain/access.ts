// Who may do what (decisions §3): roles, scopes, and the two checks the API makes with them.

import type { Modality } from './modalities';

export const ROLES = ['viewer', 'developer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = [
  'images:write',
  'videos:write',
  'voice:write',
  'music:write',
  'avatars:write',
  'chat:write',
  'three_d:write',
  'upscale:write',
  'generations:read',
  'webhooks:manage',
  'events:read',
  'uploads:write',
  'usage:read',
  'api_keys:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope that lets a key create (and cancel) generations of a modality. */
export const MODALITY_WRITE_SCOPE: Record<Modality, Scope> = {
  image: 'images:write',
  video: 'videos:write',
  voice: 'voice:write',
  music: 'music:write',
  avatar: 'avatars:write',
  chat: 'chat:write',
  '3d': 'three_d:write',
  upscale: 'upscale:write',
};

/** viewer < developer < admin < owner: each role may do all that the roles below it may. */
export function roleAllows(role: Role, minRole: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minRole);
}

/**
 * What a key may do: its own role caps it (null: no cap of its own) and so does its user's current
 * role, so demoting a user demotes that user's keys at once and no key outranks its user.
 */
export function effectiveRole(keyRole: Role | null, userRole: Role): Role {
  return keyRole !== null && !roleAllows(keyRole, userRole) ? keyRole : userRole;
}

/** The scopes that may read the events feed: its own, or the webhooks' (whoever sees deliveries sees their events). */
export const EVENTS_FEED_SCOPES = ['events:read', 'webhooks:manage'] as const satisfies readonly Scope[];

/** Empty scopes mean full access; otherwise the required scope (or, for a list, one of them) must be listed. */
export function scopesAllow(keyScopes: readonly string[], required: Scope | readonly Scope[] | null): boolean {
  if (required === null || keyScopes.length === 0) return true;
  return typeof required === 'string' ? keyScopes.includes(required) : required.some((scope) => keyScopes.includes(scope));
}
