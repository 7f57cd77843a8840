import type { Capability, Modality, ResponseMode } from './modalities';
import { MODALITY_MODE } from './modalities';
import { CATALOG_DATA } from './catalog-data';

export type Tier = 'fast' | 'standard' | 'pro';

/** Every unit the spec prices in (spec §1). */
export type PricingUnit =
  | 'image'
  | 'second'
  | 'megapixel'
  | '1k_characters'
  | 'minute'
  | 'song'
  | '3d_model'
  | '1m_output_tokens';

export interface ModelLimits {
  maxOutputs?: number;
  minDurationS?: number;
  maxDurationS?: number;
}

export interface ModelEntry {
  slug: string;
  name: string;
  provider: string;
  /** The provider's own identifier, for the adapter that calls it. */
  providerModelId: string;
  modality: Modality;
  tier: Tier;
  capabilities: Capability[];
  pricing: { unit: PricingUnit; creditsPerUnit: number };
  studioPlus: boolean;
  limits: ModelLimits;
  /** Where the price comes from, at 1,000 credits per USD. */
  priceSource: string;
}

const bySlug = new Map<string, ModelEntry>(CATALOG_DATA.map((m) => [m.slug, m]));

export function findModel(slug: string): ModelEntry | undefined {
  return bySlug.get(slug);
}

export function listModels(): readonly ModelEntry[] {
  return CATALOG_DATA;
}

export function modelMode(model: ModelEntry): ResponseMode {
  return MODALITY_MODE[model.modality];
}
