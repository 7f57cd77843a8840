import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildVoiceRequest } from '../admission/generation-requests/voice';
import { createInputFetcher } from '../admission/inputs';
import { principalOf } from '../middleware/authenticate';
import { ROUTES } from '../route-table';
import { respondWithGeneration } from '../admission/start-generation';
import { takeMaxCredits } from '../admission/max-credits';

/** POST /v1/voice (sync, 200), decisions §10: text-to-speech, voice cloning or transcription. */
export function registerVoiceRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createVoice, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const request = await buildVoiceRequest(deps, principal, body, createInputFetcher(deps, principal));
    await respondWithGeneration(ctx, deps, principal, request, maxCredits);
  });
}
