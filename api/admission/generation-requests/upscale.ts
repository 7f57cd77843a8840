import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { pricedJob } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ApiDeps } from '../../context';
import { ApiError } from '../../errors';
import { imageDimensions, jobInput, type InputFetcher } from '../inputs';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseUpscaleRequest } from '../../schemas/upscale';
import type { GenerationRequest } from '../generation-request';

/** The simulator's and most providers' ceiling for one output image. */
const MAX_OUTPUT_PIXELS = 64_000_000;

/** An upscale request: `image_url` scaled by `scale_factor`, priced per output megapixel (decisions §4). */
export async function buildUpscaleRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher): Promise<GenerationRequest> {
  const body = parseUpscaleRequest(rawBody);
  const model = resolveModel(body.model, 'upscale', principal, deps.routing);
  requireCapability(model, 'image_upscale');
  if (body.face_enhance) requireCapability(model, 'face_restore', 'face_enhance');
  const scaleFactor = Number(body.scale_factor ?? model.limits.scaleFactors?.[0] ?? 2);
  requireWithinLimits(model, { scaleFactor });
  const image = await fetchInput(body.image_url, 'image', 'image_url');
  const { width, height } = await imageDimensions(image, 'image_url');
  requireWithinLimits(model, { inputImage: { width, height } });
  if (width * height * scaleFactor * scaleFactor > MAX_OUTPUT_PIXELS) {
    throw new ApiError('validation_failed', `image_url: a ${width}x${height} image scaled by ${scaleFactor} exceeds 64 megapixels.`, {
      param: 'image_url',
    });
  }
  const { model: _slug, ...rest } = body;
  return {
    model,
    prompt: '',
    params: { ...rest, scale_factor: String(scaleFactor), face_enhance: body.face_enhance ?? false },
    ...pricedJob(model, REQUEST_MEASURES.upscale({ width, height }, scaleFactor), principal.plan),
    inputs: { image: jobInput(image) },
  };
}
