import { MODALITY_WRITE_SCOPE, roleAllows, scopesAllow } from '../../domain/access';
import type { Modality } from '../../domain/modalities';
import { planAllowsStudioPlus, type Plan } from '../../domain/plans';
import { ROUTES, type RouteSpec } from '../../api/route-table';
import type { Identity } from './api';

// What the signed-in key may do, by the same rules and route table the API enforces
// (domain/access.ts, api/route-table.ts): the dashboard hides what would be refused. The API still
// checks every call; this only spares a person a button that cannot work.

export type RouteName = keyof typeof ROUTES;

/** The key's role and scopes allow the route (its scope, its minimum role). */
export function mayCall(identity: Identity, route: RouteName, modality?: Modality): boolean {
  const access = (ROUTES[route] as RouteSpec).access;
  if (access.kind !== 'api_key') return access.kind === 'public';
  if (!roleAllows(identity.role, access.minRole)) return false;
  if (access.scope === 'any_modality_write') {
    const scopes = modality ? [MODALITY_WRITE_SCOPE[modality]] : Object.values(MODALITY_WRITE_SCOPE);
    return scopes.some((scope) => scopesAllow(identity.scopes, scope));
  }
  return scopesAllow(identity.scopes, access.scope);
}

/** The key may create generations of `modality` (its write scope, developer or above). */
export const mayCreate = (identity: Identity, modality: Modality): boolean =>
  roleAllows(identity.role, 'developer') && scopesAllow(identity.scopes, MODALITY_WRITE_SCOPE[modality]);

/** The organization's plan may use `model` (Studio+ models need a Studio or Team plan). */
export const planAllowsModel = (identity: Identity, model: { studio_plus: boolean }): boolean => !model.studio_plus || planAllowsStudioPlus(identity.organization.plan as Plan);

/** Says which models of a list the plan leaves out, or nothing when it leaves none out. */
export function studioPlusNote(identity: Identity, models: { studio_plus: boolean; name: string }[]): string | undefined {
  const left = models.filter((m) => !planAllowsModel(identity, m)).map((m) => m.name);
  return left.length ? `${left.join(', ')}: Studio+ ${left.length === 1 ? 'model' : 'models'}, for the Studio and Team plans only.` : undefined;
}
