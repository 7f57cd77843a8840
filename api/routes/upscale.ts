import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildUpscaleRequest } from '../admission/generation-requests/upscale';
import { createInputFetcher } from '../admission/inputs';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { respondWithGeneration } from '../admission/start-generation';
import { takeMaxCredits } from '../admission/max-credits';

/** POST /v1/upscale (async, 202): priced per output megapixel (decisions §4). */
export function registerUpscaleRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createUpscale, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const request = await buildUpscaleRequest(deps, principal, body, createInputFetcher(deps, principal));
    await respondWithGeneration(ctx, deps, principal, request, maxCredits);
  });
}
