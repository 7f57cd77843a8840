import type { KeyPrincipal } from '../db/repos/api-keys';
import { findModel, type ModelEntry } from '../domain/catalog';
import type { Modality } from '../domain/modalities';
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
