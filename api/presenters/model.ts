import { modelMode, type ModelEntry } from '../../domain/catalog';

/** A catalog entry on the wire (decisions §10). */
export function presentModel(model: ModelEntry) {
  return {
    object: 'model' as const,
    slug: model.slug,
    name: model.name,
    provider: model.provider,
    modality: model.modality,
    tier: model.tier,
    capabilities: model.capabilities,
    pricing: { unit: model.pricing.unit, credits_per_unit: model.pricing.creditsPerUnit },
    studio_plus: model.studioPlus,
    mode: modelMode(model),
    limits: {
      ...(model.limits.maxOutputs !== undefined && { max_outputs: model.limits.maxOutputs }),
      ...(model.limits.minDurationS !== undefined && { min_duration_s: model.limits.minDurationS }),
      ...(model.limits.maxDurationS !== undefined && { max_duration_s: model.limits.maxDurationS }),
    },
  };
}
