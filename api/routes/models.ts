import { listModels } from '../../domain/catalog';
import { routesOf } from '../../domain/provider-routing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { presentModel } from '../presenters/model';
import { requestRoutes } from '../admission/resolve-model';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { parseModelsQuery } from '../schemas/models';

export function registerModelRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.listModels, async (ctx) => {
    const query = parseModelsQuery(ctx.query);
    const principal = principalOf(ctx);
    const models = listModels().filter(
      (m) => (!query.modality || m.modality === query.modality) && (!query.tier || m.tier === query.tier) && (!query.capability || m.capabilities.includes(query.capability)),
    );
    const present = (m: (typeof models)[number]) => presentModel(m, routesOf(m, deps.routing), requestRoutes(m, principal, deps.routing));
    ctx.body = { object: 'list', data: models.map(present), has_more: false };
  });
}
