import type { KeyPrincipal } from '../../db/repos/api-keys';
import { findModel, type ModelEntry } from '../../domain/catalog';
import type { Capability, Modality } from '../../domain/modalities';
import { modelLimitViolation, type LimitedQuantity, type LimitedRequest } from '../../domain/model-limits';
import { planAllowsStudioPlus } from '../../domain/plans';
import { routesOf, usableRoutes, type RoutingConfig } from '../../domain/provider-routing';
import { SIMULATOR, type ProviderRoute } from '../../domain/providers';
import { ApiError } from '../errors';

/** The checks every creation endpoint makes on its `model` before anything is reserved. */
export function resolveModel(slug: string, modality: Modality, principal: KeyPrincipal, routing: RoutingConfig): ModelEntry {
  const model = findModel(slug);
  if (!model) {
    throw new ApiError('unknown_model', `Unknown model '${slug}'. GET /v1/models lists the available slugs.`, { param: 'model' });
  }
  if (model.modality !== modality) {
    throw new ApiError('modality_mismatch', `Model '${slug}' is a ${model.modality} model; this endpoint takes ${modality} models.`, {
      param: 'model',
    });
  }
  if (model.studioPlus && !planAllowsStudioPlus(principal.plan)) {
    throw new ApiError('plan_upgrade_required', `Model '${slug}' needs a Studio or Team plan; this organization is on ${principal.plan}.`, {
      param: 'model',
    });
  }
  if (requestRoutes(model, principal, routing).length === 0) {
    // Only in live mode (PROVIDER_MODE=live): in simulated mode such a request runs on the simulator, for 0 credits.
    const providers = routesOf(model, routing)
      .filter((r) => r.provider !== SIMULATOR)
      .map((r) => r.provider);
    throw new ApiError(
      'provider_unavailable',
      `Model '${slug}' is not available: none of its providers (${providers.join(', ') || 'none configured'}) has credentials on this server, and live keys never run on the simulator here. GET /v1/models shows which models are available; sk_test_ keys run every model on the simulator.`,
    );
  }
  return model;
}

/** The routes a request of this principal runs on, in order (decisions §7); empty: unavailable. */
export function requestRoutes(model: ModelEntry, principal: KeyPrincipal, routing: RoutingConfig): ProviderRoute[] {
  return usableRoutes(model, principal.environment, routing, principal.ownProviders);
}

/** 400 capability_not_supported unless the model can do what the request asks. */
export function requireCapability(model: ModelEntry, capability: Capability, param?: string): void {
  if (model.capabilities.includes(capability)) return;
  throw new ApiError(
    'capability_not_supported',
    `Model '${model.slug}' does not support ${capability}; its capabilities are ${model.capabilities.join(', ')}. GET /v1/models?capability=${capability} lists models that do.`,
    param ? { param } : {},
  );
}

/** The body field each quantity of a request comes from, unless the endpoint names another. */
const PARAM_OF: Record<LimitedQuantity, string> = {
  numOutputs: 'num_outputs',
  aspectRatio: 'aspect_ratio',
  durationS: 'duration_s',
  textChars: 'text',
  audioS: 'audio_url',
  maxTokens: 'max_tokens',
  inputTokens: 'messages',
  scaleFactor: 'scale_factor',
  inputImage: 'image_url',
};

/**
 * 400 validation_failed, naming the field and the model's allowed values, unless the request fits
 * the model's limits (domain/model-limits.ts). `params` names the field a quantity comes from where
 * it is not the usual one (an avatar's length comes from its `text` or its `audio_url`).
 */
export function requireWithinLimits(model: ModelEntry, request: LimitedRequest, params: Partial<Record<LimitedQuantity, string>> = {}): void {
  const violation = modelLimitViolation(model, request);
  if (!violation) return;
  throw new ApiError('validation_failed', violation.message, { param: params[violation.quantity] ?? PARAM_OF[violation.quantity] });
}
