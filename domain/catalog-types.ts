// The catalog's types, apart from its data and lookups, so that catalog-data.ts can name them
// without importing the module that imports it.
import type { Capability, Modality } from './modalities';
import type { RealProvider } from './providers';

export const TIERS = ['fast', 'standard', 'pro'] as const;
export type Tier = (typeof TIERS)[number];

/** Every unit the spec prices in (spec §1). */
export const PRICING_UNITS = ['image', 'second', 'megapixel', '1k_characters', 'minute', 'song', '3d_model', '1m_output_tokens'] as const;
export type PricingUnit = (typeof PRICING_UNITS)[number];

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
