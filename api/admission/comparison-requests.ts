import { MODALITY_WRITE_SCOPE, scopesAllow } from '../../domain/access';
import { findModel, type ModelEntry } from '../../domain/catalog';
import { PROMPT_FIELD, type Modality } from '../../domain/modalities';
import { COMPARISON_MODEL_CAP } from '../../domain/plans';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { ApiDeps } from '../context';
import { ApiError } from '../errors';
import { REQUEST_BUILDERS } from './generation-requests';
import { createInputFetcher } from './inputs';
import type { ComparisonRequest } from '../schemas/comparisons';
import type { GenerationRequest } from './generation-request';

// A comparison's models each get the request a single creation endpoint would get (decisions §5):
// the comparison's prompt in the modality's text field, `params_shared` for the rest. Each request
// then goes through that endpoint's own checks and pricing (api/admission/generation-requests), so a
// comparison accepts exactly what the eight endpoints accept, model by model.

/** The request body one model of the comparison gets. */
export function modelRequestBody(modality: Modality, slug: string, prompt: string, paramsShared: Record<string, unknown>): Record<string, unknown> {
  const field = PROMPT_FIELD[modality];
  for (const reserved of ['model', field ?? 'prompt']) {
    if (reserved in paramsShared) {
      throw new ApiError('validation_failed', `params_shared cannot set ${reserved}: a comparison sets it from ${reserved === 'model' ? 'models' : 'prompt'}.`, {
        param: `params_shared.${reserved}`,
      });
    }
  }
  if (modality === 'voice' && paramsShared.operation === 'transcription') {
    throw new ApiError('validation_failed', 'A voice comparison speaks its prompt: params_shared.operation must be tts or voice_clone.', {
      param: 'params_shared.operation',
    });
  }
  const body: Record<string, unknown> = { ...paramsShared, model: slug };
  // An avatar comparison may mix both kinds of avatar: a portrait model takes the portrait photo
  // (image_url) when one is shared, else the stock avatar's portrait (avatar_id); a stock avatar
  // model takes avatar_id only, as its own endpoint would.
  if (modality === 'avatar') {
    if (!findModel(slug)?.animatesPortrait) delete body.image_url;
    else if (body.image_url !== undefined) delete body.avatar_id;
  }
  if (field === 'messages') body.messages = [{ role: 'user', content: prompt }];
  else if (field) body[field] = prompt;
  return body;
}

/**
 * The models of a comparison, in order, after the checks that concern the list as a whole: each
 * known, all of one modality, the key's scope for it, and the plan's model cap.
 */
export function resolveComparisonModels(request: ComparisonRequest, principal: KeyPrincipal): { modality: Modality; models: ModelEntry[] } {
  const models = request.models.map((slug, i) => {
    const model = findModel(slug);
    if (!model) throw new ApiError('unknown_model', `Unknown model '${slug}'. GET /v1/models lists the available slugs.`, { param: `models.${i}` });
    return model;
  });
  const modality = models[0]!.modality;
  models.forEach((model, i) => {
    if (model.modality !== modality) {
      throw new ApiError(
        'modality_mismatch',
        `A comparison's models share one modality: '${models[0]!.slug}' is a ${modality} model and '${model.slug}' is a ${model.modality} model.`,
        { param: `models.${i}` },
      );
    }
  });
  const scope = MODALITY_WRITE_SCOPE[modality];
  if (!scopesAllow(principal.scopes, scope)) {
    throw new ApiError('insufficient_role', `A comparison of ${modality} models needs the ${scope} scope, which this key lacks.`);
  }
  const cap = COMPARISON_MODEL_CAP[principal.plan];
  if (models.length > cap) {
    throw new ApiError(
      'plan_upgrade_required',
      `The ${principal.plan} plan compares up to ${cap} models at once; this request lists ${models.length}. Remove models or upgrade the plan.`,
      { param: 'models' },
    );
  }
  return { modality, models };
}

/**
 * Every model's generation request, checked and priced as its endpoint would, in `models` order.
 * An input named in `params_shared` (upscale's `image_url`) is fetched once for all of them.
 */
export async function buildComparisonRequests(
  deps: ApiDeps,
  principal: KeyPrincipal,
  request: ComparisonRequest,
  resolved: { modality: Modality; models: ModelEntry[] },
): Promise<GenerationRequest[]> {
  const fetchInput = createInputFetcher(deps, principal);
  const build = REQUEST_BUILDERS[resolved.modality];
  const requests: GenerationRequest[] = [];
  for (const [i, model] of resolved.models.entries()) {
    const body = modelRequestBody(resolved.modality, model.slug, request.prompt, request.params_shared ?? {});
    try {
      const built = await build(deps, principal, body, fetchInput);
      // Simulator directives (`#fail:<slug>`) are read from the prompt, whatever the modality.
      requests.push({ ...built, prompt: request.prompt });
    } catch (err) {
      throw err instanceof ApiError ? asComparisonError(err, resolved.modality, model.slug, i) : err;
    }
  }
  return requests;
}

/** An endpoint's error, pointed at the comparison's fields it came from and naming the model. */
function asComparisonError(err: ApiError, modality: Modality, slug: string, index: number): ApiError {
  const field = PROMPT_FIELD[modality];
  const comparisonParam = (param: string) =>
    param === 'model' ? `models.${index}` : field && (param === field || param.startsWith(`${field}.`)) ? 'prompt' : param === 'body' ? 'params_shared' : `params_shared.${param}`;
  const message = err.message.includes(`'${slug}'`) ? err.message : `Model '${slug}': ${err.message}`;
  return new ApiError(err.code, message, {
    ...(err.param !== undefined && { param: comparisonParam(err.param) }),
    ...(err.details && { details: err.details.map((d) => ({ param: comparisonParam(d.param), message: d.message })) }),
    ...(err.headers && { headers: err.headers }),
  });
}
