import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { MUSIC_DURATION_S } from '../../../domain/media-durations';
import { pricedJob } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ApiDeps } from '../../context';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseMusicRequest } from '../../schemas/music';
import type { GenerationRequest } from '../generation-request';

/** A music request: 15 to 180 s, with or without vocals, priced on its duration. It takes no input files. */
export async function buildMusicRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown): Promise<GenerationRequest> {
  const body = parseMusicRequest(rawBody);
  const model = resolveModel(body.model, 'music', principal, deps.routing);
  requireCapability(model, 'text_to_music');
  const durationS = body.duration_s ?? Math.max(MUSIC_DURATION_S.default, model.limits.minDurationS ?? 0);
  requireWithinLimits(model, { durationS });
  const { model: _slug, prompt, ...rest } = body;
  return {
    model,
    prompt,
    params: { ...rest, duration_s: durationS, with_vocals: body.with_vocals ?? false },
    ...pricedJob(model, REQUEST_MEASURES.timed(durationS), principal.plan),
  };
}
