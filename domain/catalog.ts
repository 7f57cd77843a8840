import type { Modality, ResponseMode } from './modalities';
import { MODALITY_MODE } from './modalities';
import { CATALOG_DATA } from './catalog-data';
import type { ModelEntry, PricingUnit } from './catalog-types';

export { PRICING_UNITS } from './catalog-types';
export type { ModelEntry, ModelLimits, PricingUnit, Tier } from './catalog-types';

/**
 * The units each modality may be priced in (decisions §4): upscale is per output megapixel, voice
 * per 1k characters (tts, clone) or per minute (transcription), chat per 1M output tokens.
 */
export const UNITS_BY_MODALITY: Record<Modality, readonly PricingUnit[]> = {
  image: ['image', 'megapixel'],
  video: ['second'],
  voice: ['1k_characters', 'minute'],
  music: ['song', 'second'],
  avatar: ['second'],
  chat: ['1m_output_tokens'],
  '3d': ['3d_model'],
  upscale: ['megapixel'],
};

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
