import type { IdempotencyScope } from '../../db/repos/idempotency-keys';
import type { ApiDeps, AppContext } from '../context';
import { notFound } from '../errors';
import type { RouteAccess } from '../route-table';
import { principalOf } from './authenticate';

/**
 * Whose Idempotency-Key this is. An API key's belongs to its organization and environment
 * (decisions §9). The operator is no organization's principal: its keys belong to the organization
 * it acts on (the route's `:id`, environment `live`) and are kept apart from that organization's own
 * keys, so neither can replay or refuse the other's request.
 */
export async function idempotencyScope(ctx: AppContext, deps: Pick<ApiDeps, 'repos'>, access: RouteAccess, key: string): Promise<IdempotencyScope> {
  switch (access.kind) {
    case 'api_key': {
      const principal = principalOf(ctx);
      return { caller: 'api_key', organizationId: principal.organizationId, environment: principal.environment, key };
    }
    case 'admin': {
      const id = String(ctx.params.id ?? '');
      // The claim row references the organization: an unknown one is a 404, as without a key.
      if (!(await deps.repos.organizations.findById(id))) throw notFound('organization', id);
      return { caller: 'operator', organizationId: id, environment: 'live', key };
    }
    default:
      throw new Error(`a ${access.kind} route cannot take an Idempotency-Key`);
  }
}
