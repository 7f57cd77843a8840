import type Koa from 'koa';
import { MODALITY_WRITE_SCOPE, roleAllows, scopesAllow, type Scope } from '../../domain/access';
import type { AppState } from '../context';
import { ApiError } from '../errors';
import type { RouteAccess } from '../route-table';
import { principalOf } from './authenticate';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { Modality } from '../../domain/modalities';

const scopeNames = (scope: Scope | readonly Scope[] | null): string => (scope === null || typeof scope === 'string' ? String(scope) : scope.join(' or '));

/** The route table's rules for an authenticated key: role, scope, and a paused organization. */
export function authorize(access: Extract<RouteAccess, { kind: 'api_key' }>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    checkRouteAccess(principalOf(ctx), access);
    await next();
  };
}

/** Throws what `authorize` answers when the key may not call a route; a quote checks the route it prices with it. */
export function checkRouteAccess(principal: KeyPrincipal, access: Extract<RouteAccess, { kind: 'api_key' }>): void {
  if (!roleAllows(principal.role, access.minRole)) {
    throw new ApiError('insufficient_role', `This key has the ${principal.role} role; this operation needs ${access.minRole} or higher.`);
  }
  if (access.scope === 'any_modality_write') {
    if (!Object.values(MODALITY_WRITE_SCOPE).some((scope) => scopesAllow(principal.scopes, scope))) {
      throw new ApiError(
        'insufficient_role',
        `This key's scopes (${principal.scopes.join(', ')}) include no write scope: this operation needs the write scope of the models' modality, e.g. images:write.`,
      );
    }
  } else if (!scopesAllow(principal.scopes, access.scope)) {
    throw new ApiError('insufficient_role', `This key's scopes (${principal.scopes.join(', ')}) do not include ${scopeNames(access.scope)}. Create a key with that scope.`);
  }
  if (access.creditConsuming && principal.paused) {
    throw new ApiError('organization_paused', 'This organization is paused: requests that spend credits are refused until an operator unpauses it. Reads still work.');
  }
}

/**
 * What acting on an existing job (cancelling it, deleting its outputs) needs besides its route's own
 * scope: the write scope of the job's modality, as creating it did. `doing` starts the refusal:
 * "Cancelling a video generation".
 */
export function requireModalityWrite(principal: KeyPrincipal, modality: Modality, doing: string): void {
  const scope = MODALITY_WRITE_SCOPE[modality];
  if (!scopesAllow(principal.scopes, scope)) throw new ApiError('insufficient_role', `${doing} needs the ${scope} scope.`);
}
