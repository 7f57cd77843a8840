import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { optionalImageInput } from '../inputs';
import { principalOf } from '../middleware/authenticate';
import { requireCapability, resolveModel } from '../resolve-model';
import { ROUTES } from '../route-table';
import { parseThreeDRequest } from '../schemas/three-d';
import { respondWithGeneration } from '../start-generation';

/** POST /v1/three-d (async, 202): a GLB mesh from text, or from an image with `image_url`. */
export function registerThreeDRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createThreeD, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseThreeDRequest(ctx.state.body);
    const model = resolveModel(body.model, '3d', principal, deps.routing);
    requireCapability(model, body.image_url ? 'image_to_3d' : 'text_to_3d', body.image_url ? 'image_url' : 'model');
    if (body.rigged) requireCapability(model, 'rigged_3d', 'rigged');
    const inputs = await optionalImageInput(deps, principal, body.image_url);

    const { model: _slug, prompt, ...rest } = body;
    await respondWithGeneration(ctx, deps, principal, {
      model,
      prompt,
      params: { ...rest, texture_size: body.texture_size ?? '1024', mesh_complexity: body.mesh_complexity ?? 'medium', rigged: body.rigged ?? false },
      estimatedCredits: estimateCredits(model, { count: 1 }, principal.plan),
      ...(inputs && { inputs }),
    });
  });
}
