import { MUSIC_DURATION_S } from '../../domain/media-durations';
import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { principalOf } from '../middleware/authenticate';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { ROUTES } from '../route-table';
import { parseMusicRequest } from '../schemas/music';
import { respondWithGeneration } from '../start-generation';

/** POST /v1/music (async, 202): 15 to 180 s, with or without vocals. */
export function registerMusicRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createMusic, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseMusicRequest(ctx.state.body);
    const model = resolveModel(body.model, 'music', principal, deps.routing);
    requireCapability(model, 'text_to_music');
    const durationS = body.duration_s ?? Math.max(MUSIC_DURATION_S.default, model.limits.minDurationS ?? 0);
    requireWithinLimits(model, { durationS });
    const { model: _slug, prompt, ...rest } = body;
    await respondWithGeneration(ctx, deps, principal, {
      model,
      prompt,
      params: { ...rest, duration_s: durationS, with_vocals: body.with_vocals ?? false },
      estimatedCredits: estimateCredits(model, { durationMs: durationS * 1000 }, principal.plan),
    });
  });
}
