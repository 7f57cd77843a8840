import type { ModelEntry } from './catalog';
import type { Environment } from './generation-status';
import { SIMULATOR, type ProviderRoute } from './providers';

// Which routes serve a request (decisions §7). The sandbox always runs on the simulator. A live
// request goes to the model's routes (MODEL_ROUTES, else the catalog's) whose provider has
// credentials here — the platform's, or the organization's own (BYOK) — in their order; with none,
// to the simulator only in simulated mode. An empty list means the model cannot run here
// (503 provider_unavailable, before anything is reserved).

export interface RoutingConfig {
  providerMode: 'simulated' | 'live';
  /** Providers the platform has credentials for. */
  configuredProviders: readonly string[];
  /** MODEL_ROUTES: a model's routes on this deployment, replacing the catalog's. */
  modelRoutes?: Readonly<Record<string, readonly ProviderRoute[]>>;
}

/** The routes a model has on this deployment, usable or not. */
export function routesOf(model: ModelEntry, config: Pick<RoutingConfig, 'modelRoutes'>): readonly ProviderRoute[] {
  return config.modelRoutes?.[model.slug] ?? model.routes;
}

/** The simulator's route for a model. */
export function simulatorRoute(model: ModelEntry): ProviderRoute {
  return { provider: SIMULATOR, model: model.slug };
}

/**
 * The routes to try, in order. `ownProviders` are the providers the organization brought its own
 * keys for (Enterprise).
 */
export function usableRoutes(
  model: ModelEntry,
  environment: Environment,
  config: RoutingConfig,
  ownProviders: readonly string[] = [],
): ProviderRoute[] {
  if (environment === 'test') return [simulatorRoute(model)];
  const usable = routesOf(model, config).flatMap((route): ProviderRoute[] => {
    if (route.provider === SIMULATOR) return [route];
    if (ownProviders.includes(route.provider)) return [{ ...route, key: 'own' }];
    return config.configuredProviders.includes(route.provider) ? [{ ...route, key: 'platform' }] : [];
  });
  if (usable.length > 0) return usable;
  return config.providerMode === 'simulated' ? [simulatorRoute(model)] : [];
}
