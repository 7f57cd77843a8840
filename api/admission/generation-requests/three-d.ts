import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { pricedJob } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ApiDeps } from '../../context';
import { optionalImageInput, type InputFetcher } from '../inputs';
import { requireCapability, resolveModel } from '../resolve-model';
import { parseThreeDRequest } from '../../schemas/three-d';
import type { GenerationRequest } from '../generation-request';

/** A 3D request: a GLB mesh from text, or from an image with `image_url`; priced per mesh. */
export async function buildThreeDRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown, fetchInput: InputFetcher): Promise<GenerationRequest> {
  const body = parseThreeDRequest(rawBody);
  const model = resolveModel(body.model, '3d', principal, deps.routing);
  requireCapability(model, body.image_url ? 'image_to_3d' : 'text_to_3d', body.image_url ? 'image_url' : 'model');
  if (body.rigged) requireCapability(model, 'rigged_3d', 'rigged');
  const inputs = await optionalImageInput(fetchInput, body.image_url);

  const { model: _slug, prompt, ...rest } = body;
  return {
    model,
    prompt,
    params: { ...rest, texture_size: body.texture_size ?? '1024', mesh_complexity: body.mesh_complexity ?? 'medium', rigged: body.rigged ?? false },
    ...pricedJob(model, REQUEST_MEASURES.threeD(), principal.plan),
    ...(inputs && { inputs }),
  };
}
