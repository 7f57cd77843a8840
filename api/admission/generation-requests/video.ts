import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { defaultVideoDurationS } from '../../../domain/media-durations';
import { pricedJob } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ApiDeps } from '../../context';
import { optionalImageInput, type InputFetcher } from '../inputs';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseVideoRequest } from '../../schemas/videos';
import type { GenerationRequest } from '../generation-request';

const DEFAULT_VIDEO_ASPECT_RATIO = '16:9';

/** A video request: text-to-video, or image-to-video with `image_url`; priced on the output's duration. */
export async function buildVideoRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher): Promise<GenerationRequest> {
  const body = parseVideoRequest(rawBody);
  const model = resolveModel(body.model, 'video', principal, deps.routing);
  requireCapability(model, body.image_url ? 'image_to_video' : 'text_to_video', body.image_url ? 'image_url' : 'model');

  const durationS = body.duration_s ?? defaultVideoDurationS(model);
  const aspectRatio = body.aspect_ratio ?? model.limits.aspectRatios?.[0] ?? DEFAULT_VIDEO_ASPECT_RATIO;
  requireWithinLimits(model, { durationS, aspectRatio });
  const inputs = await optionalImageInput(fetchInput, body.image_url);

  const { model: _slug, prompt, ...rest } = body;
  return {
    model,
    prompt,
    params: { ...rest, duration_s: durationS, aspect_ratio: aspectRatio },
    ...pricedJob(model, REQUEST_MEASURES.timed(durationS), principal.plan),
    ...(inputs && { inputs }),
  };
}
