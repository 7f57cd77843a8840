import { DEFAULT_ASPECT_RATIO, imageSize } from '../../domain/image-sizes';
import { estimateImageCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ROUTES } from '../route-table';
import { principalOf } from '../middleware/authenticate';
import { presentGeneration } from '../presenters/generation';
import { resolveModel } from '../resolve-model';
import { parseImageRequest } from '../schemas/images';
import { startGeneration } from '../start-generation';

export function registerImageRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createImage, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseImageRequest(ctx.state.body);
    const model = resolveModel(body.model, 'image', principal, deps.routing);
    const aspectRatio = body.aspect_ratio ?? DEFAULT_ASPECT_RATIO;
    const numOutputs = body.num_outputs ?? 1;
    const { model: _slug, prompt, ...rest } = body;
    const params = { ...rest, aspect_ratio: aspectRatio, num_outputs: numOutputs };
    const { httpStatus, generation, outputs } = await startGeneration(deps, principal, {
      model,
      prompt,
      params,
      estimatedCredits: estimateImageCredits(model, { numOutputs, ...imageSize(aspectRatio) }, principal.plan),
    }, ctx.state.idempotency);
    ctx.status = httpStatus;
    ctx.body = await presentGeneration(generation, outputs, deps.storage);
  });
}
