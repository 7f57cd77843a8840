import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError } from '../errors';
import { fetchAndStoreInput, imageDimensions, jobInput } from '../inputs';
import { principalOf } from '../middleware/authenticate';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { ROUTES } from '../route-table';
import { parseUpscaleRequest } from '../schemas/upscale';
import { respondWithGeneration } from '../start-generation';

/** The simulator's and most providers' ceiling for one output image. */
const MAX_OUTPUT_PIXELS = 64_000_000;

/** POST /v1/upscale (async, 202): priced per output megapixel (decisions §4). */
export function registerUpscaleRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createUpscale, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseUpscaleRequest(ctx.state.body);
    const model = resolveModel(body.model, 'upscale', principal, deps.routing);
    requireCapability(model, 'image_upscale');
    if (body.face_enhance) requireCapability(model, 'face_restore', 'face_enhance');
    const scaleFactor = Number(body.scale_factor ?? model.limits.scaleFactors?.[0] ?? 2);
    requireWithinLimits(model, { scaleFactor });
    const image = await fetchAndStoreInput(deps, principal, body.image_url, 'image', 'image_url');
    const { width, height } = await imageDimensions(image, 'image_url');
    requireWithinLimits(model, { inputImage: { width, height } });
    if (width * height * scaleFactor * scaleFactor > MAX_OUTPUT_PIXELS) {
      throw new ApiError('validation_failed', `image_url: a ${width}x${height} image scaled by ${scaleFactor} exceeds 64 megapixels.`, {
        param: 'image_url',
      });
    }
    const { model: _slug, ...rest } = body;
    await respondWithGeneration(ctx, deps, principal, {
      model,
      prompt: '',
      params: { ...rest, scale_factor: String(scaleFactor), face_enhance: body.face_enhance ?? false },
      estimatedCredits: estimateCredits(model, { widthPx: width * scaleFactor, heightPx: height * scaleFactor }, principal.plan),
      inputs: { image: jobInput(image) },
    });
  });
}
