import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { DEFAULT_ASPECT_RATIO } from '../../../domain/image-sizes';
import { pricedJob } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ApiDeps } from '../../context';
import { optionalImageInput, type InputFetcher } from '../inputs';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { parseImageRequest } from '../../schemas/images';
import type { GenerationRequest } from '../generation-request';

/**
 * An image request: text-to-image, or image-to-image with `image_url`. Either way the output has
 * the requested aspect ratio's size and is priced as the model's images are.
 */
export async function buildImageRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher): Promise<GenerationRequest> {
  const body = parseImageRequest(rawBody);
  const model = resolveModel(body.model, 'image', principal, deps.routing);
  requireCapability(model, body.image_url ? 'image_to_image' : 'text_to_image', body.image_url ? 'image_url' : 'model');
  const aspectRatio = body.aspect_ratio ?? DEFAULT_ASPECT_RATIO;
  const numOutputs = body.num_outputs ?? 1;
  requireWithinLimits(model, { numOutputs, aspectRatio });
  const inputs = await optionalImageInput(fetchInput, body.image_url);

  const { model: _slug, prompt, ...rest } = body;
  return {
    model,
    prompt,
    params: { ...rest, aspect_ratio: aspectRatio, num_outputs: numOutputs },
    ...pricedJob(model, REQUEST_MEASURES.image(numOutputs, aspectRatio), principal.plan),
    ...(inputs && { inputs }),
  };
}
