import type { ProviderRoute } from '../../domain/providers';
import { avatarInputs } from '../../domain/avatars';
import { modelMode, type ModelEntry, type ModelLimits } from '../../domain/catalog';

/** The wire name of every limit; the type makes a new `ModelLimits` field fail to compile until named here. */
const LIMIT_WIRE_NAMES: { [K in keyof Required<ModelLimits>]: string } = {
  maxOutputs: 'max_outputs',
  minDurationS: 'min_duration_s',
  maxDurationS: 'max_duration_s',
  durationsS: 'durations_s',
  aspectRatios: 'aspect_ratios',
  maxTextChars: 'max_text_chars',
  maxAudioS: 'max_audio_s',
  contextTokens: 'context_tokens',
  maxOutputTokens: 'max_output_tokens',
  scaleFactors: 'scale_factors',
  maxInputMpx: 'max_input_mpx',
};

function presentLimits(limits: ModelLimits): Record<string, number | readonly number[] | readonly string[]> {
  const wire: Record<string, number | readonly number[] | readonly string[]> = {};
  for (const key of Object.keys(LIMIT_WIRE_NAMES) as (keyof ModelLimits)[]) {
    const value = limits[key];
    if (value !== undefined) wire[LIMIT_WIRE_NAMES[key]] = value;
  }
  return wire;
}

/**
 * A catalog entry on the wire (decisions §10). `provider` is the provider of its first route on
 * this deployment (MODEL_ROUTES may replace the catalog's); `available` and `providers` say whether,
 * and by which providers in order, it runs for the caller here (decisions §7): the simulator for
 * sandbox keys, else routes with credentials (the platform's or the organization's own).
 */
export function presentModel(model: ModelEntry, deployedRoutes: readonly ProviderRoute[], routes: readonly ProviderRoute[]) {
  return {
    object: 'model' as const,
    slug: model.slug,
    name: model.name,
    provider: deployedRoutes[0]!.provider,
    modality: model.modality,
    tier: model.tier,
    capabilities: model.capabilities,
    pricing: { unit: model.pricing.unit, credits_per_unit: model.pricing.creditsPerUnit },
    studio_plus: model.studioPlus,
    mode: modelMode(model),
    limits: presentLimits(model.limits),
    // Avatar models only: whether it animates a portrait photo, and the inputs it takes: the
    // bodies ("text", "lipsync") and "image_url" where a portrait photo may be sent (decisions §10).
    ...(model.modality === 'avatar' && { animates_portrait: model.animatesPortrait === true, inputs: avatarInputs(model) }),
    available: routes.length > 0,
    providers: routes.map((route) => route.provider),
  };
}
