import type { ModelEntry } from './catalog';
import type { Environment } from './generation-status';

// Which adapter serves a request (decisions §7): the simulator always serves the sandbox; a live
// request goes to the model's provider when it has credentials, else to the simulator only in
// simulated mode. `undefined` means the model cannot run here (503 provider_unavailable).

export const SIMULATOR = 'simulator';

export interface RoutingConfig {
  providerMode: 'simulated' | 'live';
  configuredProviders: readonly string[];
}

export function routeProvider(model: ModelEntry, environment: Environment, config: RoutingConfig): string | undefined {
  if (environment === 'test') return SIMULATOR;
  if (config.configuredProviders.includes(model.provider)) return model.provider;
  return config.providerMode === 'simulated' ? SIMULATOR : undefined;
}
