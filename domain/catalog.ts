import type { Capability, Modality, ResponseMode } from './modalities';
import type { RealProvider } from './providers';
import { MODALITY_MODE } from './modalities';
import { CATALOG_DATA } from './catalog-data';

export type Tier = 'fast' | 'standard' | 'pro';

/** Every unit the spec prices in (spec §1). */
export const PRICING_UNITS = [
  'image',
  'second',
  'megapixel',
  '1k_characters',
  'minute',
  'song',
  '3d_model',
  '1m_output_tokens',
] as const;
export type PricingUnit = (typeof PRICING_UNITS)[number];

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

/** The provider adapters a model can be served by; `openai_compatible` is any OpenAI-style server. */

/** What a model accepts; each modality uses the fields that apply to it. */
export interface ModelLimits {
  /** image: most outputs per request (spec §8 caps it at 4). */
  maxOutputs?: number;
  /** video, avatar, music: output length range in whole seconds. */
  minDurationS?: number;
  maxDurationS?: number;
  /** video: the only lengths the model renders, when it does not take any value in the range. */
  durationsS?: number[];
  /** image, video: the aspect ratios the model renders. */
  aspectRatios?: string[];
  /** voice (tts, clone), avatar (text): longest input text in characters. */
  maxTextChars?: number;
  /** voice (transcription), lipsync: longest input audio in seconds. */
  maxAudioS?: number;
  /** chat: context window and output cap in tokens. */
  contextTokens?: number;
  maxOutputTokens?: number;
  /** upscale: the scale factors offered and the largest input in megapixels. */
  scaleFactors?: number[];
  maxInputMpx?: number;
}

/** A catalog route: a real provider and that provider's own model id. */
export interface CatalogRoute {
  provider: RealProvider;
  model: string;
}

export interface ModelEntry {
  slug: string;
  name: string;
  /** Who serves it, in the order tried (decisions §7); MODEL_ROUTES may replace them per deployment. */
  routes: readonly CatalogRoute[];
  modality: Modality;
  tier: Tier;
  capabilities: Capability[];
  pricing: { unit: PricingUnit; creditsPerUnit: number };
  studioPlus: boolean;
  limits: ModelLimits;
  /**
   * avatar: animates the portrait photo a request sends as `image_url`, speaking its text or its
   * audio, where the other avatar models take a stock avatar or a video to lip-sync.
   */
  animatesPortrait?: boolean;
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
