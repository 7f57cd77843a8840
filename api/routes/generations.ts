import Router from '@koa/router';
import type { ApiDeps, AppState } from '../context';
import { notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentGeneration } from '../presenters/generation';

export function generationsRouter(deps: ApiDeps) {
  const router = new Router<AppState>();

  router.get('/v1/generations/:id', async (ctx) => {
    const principal = principalOf(ctx);
    const found = await deps.repos.generations.findWithOutputs(ctx.params.id ?? '', principal);
    if (!found) throw notFound('generation', ctx.params.id ?? '');
    ctx.body = presentGeneration(found.generation, found.outputs, deps.urlSigner);
  });

  return router;
}
