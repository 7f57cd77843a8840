import { DEFAULT_ASPECT_RATIO, imageSize } from '../../domain/image-sizes';
import { estimateImageCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { optionalImageInput } from '../inputs';
import { ROUTES } from '../route-table';
import { principalOf } from '../middleware/authenticate';
import { presentGeneration } from '../presenters/generation';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseImageRequest } from '../schemas/images';
import { startGeneration } from '../start-generation';

/**
 * POST /v1/images (sync, 200): text-to-image, or image-to-image with `image_url`. Either way the
 * output has the requested aspect ratio's size and is priced as the model's images are.
 */
export function registerImageRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createImage, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseImageRequest(ctx.state.body);
    const model = resolveModel(body.model, 'image', principal, deps.routing);
    requireCapability(model, body.image_url ? 'image_to_image' : 'text_to_image', body.image_url ? 'image_url' : 'model');
    const aspectRatio = body.aspect_ratio ?? DEFAULT_ASPECT_RATIO;
    const numOutputs = body.num_outputs ?? 1;
    requireWithinLimits(model, { numOutputs, aspectRatio });
    const inputs = await optionalImageInput(deps, principal, body.image_url);

    const { model: _slug, prompt, ...rest } = body;
    const params = { ...rest, aspect_ratio: aspectRatio, num_outputs: numOutputs };
    const { httpStatus, generation, outputs } = await startGeneration(deps, principal, {
      model,
      prompt,
      params,
      estimatedCredits: estimateImageCredits(model, { numOutputs, ...imageSize(aspectRatio) }, principal.plan),
      ...(inputs && { inputs }),
    }, ctx.state.idempotency);
    ctx.status = httpStatus;
    ctx.body = await presentGeneration(generation, outputs, deps.storage);
  });
}
