import type { KeyPrincipal } from '../db/repos/api-keys';
import { findModel, type ModelEntry } from '../domain/catalog';
import type { Capability, Modality } from '../domain/modalities';
import { planAllowsStudioPlus } from '../domain/plans';
import { routeProvider, type RoutingConfig } from '../domain/provider-routing';
import { ApiError } from './errors';

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
  if (!routeProvider(model, principal.environment, routing)) {
    throw new ApiError('provider_unavailable', `Model '${slug}' is not available: its provider is not configured on this server.`);
  }
  return model;
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
