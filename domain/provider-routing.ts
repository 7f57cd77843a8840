import type { ModelEntry } from './catalog';
import type { Environment } from './generation-status';
import { SIMULATOR, type ProviderRoute } from './providers';

// Which routes serve a request (decisions §7). The sandbox always runs on the simulator. A live
// request goes to the model's routes (MODEL_ROUTES, else the catalog's) whose provider has
// credentials here — the platform's, or the organization's own (BYOK) — in their order. A live
// request never mixes real and simulated output: with a real route usable, the simulator is never
// one of its routes (a paid job cannot fall back to placeholder output); with none, it runs on the
// simulator only in simulated mode, the operator's explicit permission, and is then charged
// nothing (domain/pricing.ts). An empty list means the model cannot run here (503
// provider_unavailable, before anything is reserved).

export interface RoutingConfig {
  /** PROVIDER_MODE: whether a live request with no usable real route runs on the simulator, for 0 credits. */
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
 * Whether a request on these routes can only produce simulated output: the sandbox's always, a
 * live request's in simulated mode when none of its real routes is usable. Such output is never
 * paid for (domain/pricing.ts admissionCredits) and is cached apart from paid output.
 */
export function simulatedOnly(routes: readonly ProviderRoute[]): boolean {
  return routes.length > 0 && routes.every((route) => route.provider === SIMULATOR);
}

/**
 * The routes to try, in order. `ownProviders` are the providers the organization brought its own
 * keys for (Enterprise).
 */
export function usableRoutes(model: ModelEntry, environment: Environment, config: RoutingConfig, ownProviders: readonly string[] = []): ProviderRoute[] {
  if (environment === 'test') return [simulatorRoute(model)];
  const deployed = routesOf(model, config);
  const real = deployed.flatMap((route): ProviderRoute[] => {
    if (route.provider === SIMULATOR) return [];
    if (ownProviders.includes(route.provider)) return [{ ...route, key: 'own' }];
    return config.configuredProviders.includes(route.provider) ? [{ ...route, key: 'platform' }] : [];
  });
  if (real.length > 0) return real;
  if (config.providerMode === 'live') return [];
  // MODEL_ROUTES may name the simulator's own routes for a model; else the simulator serves it as it is.
  const simulated = deployed.filter((route) => route.provider === SIMULATOR);
  return simulated.length > 0 ? simulated : [simulatorRoute(model)];
}
