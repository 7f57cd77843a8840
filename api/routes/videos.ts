import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildVideoRequest } from '../admission/generation-requests/video';
import { createInputFetcher } from '../admission/inputs';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { respondWithGeneration } from '../admission/start-generation';
import { takeMaxCredits } from '../admission/max-credits';

/** POST /v1/videos (async, 202): text-to-video, or image-to-video with `image_url`. */
export function registerVideoRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createVideo, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const request = await buildVideoRequest(deps, principal, body, createInputFetcher(deps, principal));
    await respondWithGeneration(ctx, deps, principal, request, maxCredits);
  });
}
