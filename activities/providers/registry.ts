import type { ModelEntry } from '../../domain/catalog';
import type { Environment } from '../../domain/generation-status';
import { routeProvider, SIMULATOR, type RoutingConfig } from '../../domain/provider-routing';
import { ProviderError, type ProviderAdapter } from './types';

/** The only place that chooses an adapter for a model. */
export interface ProviderRegistry {
  adapterFor(model: ModelEntry, environment: Environment): ProviderAdapter;
}

export function createProviderRegistry(opts: {
  simulator: ProviderAdapter;
  adapters?: Record<string, ProviderAdapter>;
  providerMode: RoutingConfig['providerMode'];
}): ProviderRegistry {
  const adapters = opts.adapters ?? {};
  const routing: RoutingConfig = { providerMode: opts.providerMode, configuredProviders: Object.keys(adapters) };
  return {
    adapterFor(model, environment) {
      const route = routeProvider(model, environment, routing);
      if (route === SIMULATOR) return opts.simulator;
      const adapter = route ? adapters[route] : undefined;
      if (!adapter) {
        throw new ProviderError('provider_unavailable', `No credentials are configured for provider ${model.provider}.`);
      }
      return adapter;
    },
  };
}
