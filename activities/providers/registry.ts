import type { ModelEntry } from '../../domain/catalog';
import type { Environment } from '../../domain/generation-status';
import { usableRoutes, type RoutingConfig } from '../../domain/provider-routing';
import { SIMULATOR, type ProviderRoute, type RealProvider } from '../../domain/providers';
import { ProviderError, type ProviderAdapter, type ProviderCredentials } from './types';

/** The only place that maps a route to its adapter and the credentials to call it with. */
export interface ProviderRegistry {
  adapterFor(route: ProviderRoute): ProviderAdapter;
  /**
   * The key the route was admitted with: the organization's own (BYOK) or the platform's. A route
   * from before keys were pinned takes the organization's own key if it has one, else the platform's.
   */
  credentialsFor(route: ProviderRoute, organizationId: string): Promise<ProviderCredentials>;
  /** For workflows started before routes: the first route this worker would pick today. */
  defaultRoute(model: ModelEntry, environment: Environment): ProviderRoute;
}

/** No credentials: the simulator needs none. */
const NO_CREDENTIALS: ProviderCredentials = { apiKey: '', baseUrl: '' };

export function createProviderRegistry(opts: {
  simulator: ProviderAdapter;
  /** One adapter per real provider; a provider without one cannot be routed to. */
  adapters?: Partial<Record<RealProvider, ProviderAdapter>>;
  /** The platform's credentials (configuration). */
  platformCredentials?: Partial<Record<RealProvider, ProviderCredentials>>;
  /** An organization's own credentials (BYOK), or undefined when it has none for the provider. */
  ownCredentials?: (organizationId: string, provider: RealProvider) => Promise<ProviderCredentials | undefined>;
  providerMode: RoutingConfig['providerMode'];
  modelRoutes?: RoutingConfig['modelRoutes'];
}): ProviderRegistry {
  const adapters = opts.adapters ?? {};
  const platform = opts.platformCredentials ?? {};
  const routing: RoutingConfig = {
    providerMode: opts.providerMode,
    configuredProviders: Object.keys(platform),
    ...(opts.modelRoutes && { modelRoutes: opts.modelRoutes }),
  };
  return {
    adapterFor(route) {
      if (route.provider === SIMULATOR) return opts.simulator;
      const adapter = adapters[route.provider];
      if (!adapter) throw unavailable(route.provider);
      return adapter;
    },
    async credentialsFor(route, organizationId) {
      if (route.provider === SIMULATOR) return NO_CREDENTIALS;
      const own = route.key === 'platform' ? undefined : await opts.ownCredentials?.(organizationId, route.provider);
      if (route.key === 'own' && !own) throw ownKeyGone(route.provider);
      const credentials = own ?? platform[route.provider];
      if (!credentials) throw unavailable(route.provider);
      return credentials;
    },
    defaultRoute(model, environment) {
      const [route] = usableRoutes(model, environment, routing);
      if (!route) throw unavailable(model.routes[0]!.provider);
      return route;
    },
  };
}

/** The job was admitted on the organization's own key, which has been deleted since. */
function ownKeyGone(provider: string): ProviderError {
  return new ProviderError(
    'provider_auth_failed',
    `This generation runs on the organization's own ${provider} key, which was deleted while it ran. Store the key again (PUT /v1/provider-credentials/${provider}) and retry.`,
    false,
    { source: 'gateway' },
  );
}

function unavailable(provider: string): ProviderError {
  return new ProviderError('provider_unavailable', `No credentials are configured for provider ${provider} on this server.`, false, { source: 'gateway' });
}
