import { defaultVideoDurationS } from '../../domain/media-durations';
import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { optionalImageInput } from '../inputs';
import { principalOf } from '../middleware/authenticate';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { ROUTES } from '../route-table';
import { parseVideoRequest } from '../schemas/videos';
import { respondWithGeneration } from '../start-generation';

const DEFAULT_VIDEO_ASPECT_RATIO = '16:9';

/** POST /v1/videos (async, 202): text-to-video, or image-to-video with `image_url`. */
export function registerVideoRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createVideo, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseVideoRequest(ctx.state.body);
    const model = resolveModel(body.model, 'video', principal, deps.routing);
    requireCapability(model, body.image_url ? 'image_to_video' : 'text_to_video', body.image_url ? 'image_url' : 'model');

    const durationS = body.duration_s ?? defaultVideoDurationS(model);
    const aspectRatio = body.aspect_ratio ?? model.limits.aspectRatios?.[0] ?? DEFAULT_VIDEO_ASPECT_RATIO;
    requireWithinLimits(model, { durationS, aspectRatio });
    const inputs = await optionalImageInput(deps, principal, body.image_url);

    const { model: _slug, prompt, ...rest } = body;
    await respondWithGeneration(ctx, deps, principal, {
      model,
      prompt,
      params: { ...rest, duration_s: durationS, aspect_ratio: aspectRatio },
      estimatedCredits: estimateCredits(model, { durationMs: durationS * 1000 }, principal.plan),
      ...(inputs && { inputs }),
    });
  });
}
