import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildMusicRequest } from '../admission/generation-requests/music';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { respondWithGeneration } from '../admission/start-generation';
import { takeMaxCredits } from '../admission/max-credits';

/** POST /v1/music (async, 202): 15 to 180 s, with or without vocals. */
export function registerMusicRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createMusic, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const request = await buildMusicRequest(deps, principal, body);
    await respondWithGeneration(ctx, deps, principal, request, maxCredits);
  });
}
