import Router from '@koa/router';
import type { ApiDeps, AppState } from '../context';
import { notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentGeneration } from '../presenters/generation';

export function generationsRouter(deps: ApiDeps) {
  const router = new Router<AppState>();

  router.get('/v1/generations/:id', async (ctx) => {
    const principal = principalOf(ctx);
    const generation = await deps.repos.generations.findOwned(ctx.params.id ?? '', principal);
    if (!generation) throw notFound('generation', ctx.params.id ?? '');
    const outputs = await deps.repos.generations.listOutputs(generation.id);
    ctx.body = presentGeneration(generation, outputs, deps.urlSigner);
  });

  return router;
}
