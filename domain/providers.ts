import { MODALITIES, type Modality } from './modalities';

// The provider names of decisions §7: the adapters that call a real provider, and the simulator.

export const REAL_PROVIDERS = ['openai', 'anthropic', 'fal', 'replicate', 'elevenlabs', 'openai_compatible'] as const;
export type RealProvider = (typeof REAL_PROVIDERS)[number];

export const SIMULATOR = 'simulator';
export type ProviderName = RealProvider | typeof SIMULATOR;

/** One way to serve a model: a provider and that provider's own model id. */
export interface ProviderRoute {
  provider: ProviderName;
  model: string;
  /**
   * Whose key runs a real provider's route, decided when the request is admitted: the
   * organization's own (BYOK, while it is Enterprise) or the platform's. Every step of the job uses
   * that one key, so a key stored, deleted or a plan changed meanwhile cannot move a running job to
   * another account. Absent on routes admitted before keys were pinned.
   */
  key?: 'own' | 'platform';
}

export function isRealProvider(name: string): name is RealProvider {
  return (REAL_PROVIDERS as readonly string[]).includes(name);
}

/**
 * The modalities each adapter serves in this gateway. A route outside them (MODEL_ROUTES sending
 * an image model to `anthropic`) is refused when the configuration is read, not when a paid
 * request reaches it; the adapters refuse such a job too, before calling anyone.
 */
export const PROVIDER_MODALITIES: Record<ProviderName, readonly Modality[]> = {
  openai: ['chat', 'image', 'voice'],
  anthropic: ['chat'],
  fal: ['image', 'video', 'music', 'avatar', '3d', 'upscale'],
  replicate: ['image', 'video', 'upscale'],
  elevenlabs: ['voice', 'music'],
  openai_compatible: ['chat'],
  simulator: MODALITIES,
};

export function servesModality(provider: ProviderName, modality: Modality): boolean {
  return PROVIDER_MODALITIES[provider].includes(modality);
}
