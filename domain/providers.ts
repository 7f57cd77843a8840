// The provider names of decisions §7: the adapters that call a real provider, and the simulator.

export const REAL_PROVIDERS = ['openai', 'anthropic', 'fal', 'replicate', 'elevenlabs', 'openai_compatible'] as const;
export type RealProvider = (typeof REAL_PROVIDERS)[number];

export const SIMULATOR = 'simulator';
export type ProviderName = RealProvider | typeof SIMULATOR;

/** One way to serve a model: a provider and that provider's own model id. */
export interface ProviderRoute {
  provider: ProviderName;
  model: string;
}

export function isRealProvider(name: string): name is RealProvider {
  return (REAL_PROVIDERS as readonly string[]).includes(name);
}
