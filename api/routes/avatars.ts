import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildAvatarRequest } from '../admission/generation-requests/avatar';
import { createInputFetcher } from '../admission/inputs';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { respondWithGeneration } from '../admission/start-generation';
import { takeMaxCredits } from '../admission/max-credits';

/** POST /v1/avatars (async, 202), decisions §10: text-to-avatar or lipsync, never both. */
export function registerAvatarRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createAvatar, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const request = await buildAvatarRequest(deps, principal, body, createInputFetcher(deps, principal));
    await respondWithGeneration(ctx, deps, principal, request, maxCredits);
  });
}
