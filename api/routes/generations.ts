import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentGeneration } from '../presenters/generation';
import { ROUTES } from '../route-table';

export function registerGenerationRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.getGeneration, async (ctx) => {
    const principal = principalOf(ctx);
    const found = await deps.repos.generations.findWithOutputs(ctx.params.id ?? '', principal);
    if (!found) throw notFound('generation', ctx.params.id ?? '');
    ctx.body = await presentGeneration(found.generation, found.outputs, deps.storage);
  });
}
