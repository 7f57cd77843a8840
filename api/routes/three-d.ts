import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildThreeDRequest } from '../admission/generation-requests/three-d';
import { createInputFetcher } from '../admission/inputs';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { respondWithGeneration } from '../admission/start-generation';
import { takeMaxCredits } from '../admission/max-credits';

/** POST /v1/three-d (async, 202): a GLB mesh from text, or from an image with `image_url`. */
export function registerThreeDRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createThreeD, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const request = await buildThreeDRequest(deps, principal, body, createInputFetcher(deps, principal));
    await respondWithGeneration(ctx, deps, principal, request, maxCredits);
  });
}
