import type { Repos } from '../db/repos';
import { ownCredentialsFrom } from '../activities/providers/own-credentials';
import { createRealAdapters } from '../activities/providers/real-adapters';
import { createProviderRegistry, type ProviderRegistry } from '../activities/providers/registry';
import { createSimulator } from '../activities/providers/simulator';
import type { ProviderAdapter } from '../activities/providers/types';
import type { RealProvider } from '../domain/providers';
import { providerSecretsKeys, type Config } from '../config';
import type { Logger } from '../lib/logger';
import { secretBoxOf } from '../lib/secret-box';

/**
 * The worker's providers as configured: the simulator, every real adapter, platform and BYOK keys.
 * `adapters` replaces the real providers' adapters (a test stack's stand-ins for them).
 */
export function providerRegistryFromConfig(
  config: Config,
  repos: Repos,
  logger?: Logger,
  adapters?: (simulator: ProviderAdapter) => Record<RealProvider, ProviderAdapter>,
): ProviderRegistry {
  const box = secretBoxOf(providerSecretsKeys(config));
  const simulator = createSimulator({ asyncLatencyMs: config.simulatorAsyncLatencyMs });
  return createProviderRegistry({
    simulator,
    adapters: adapters?.(simulator) ?? createRealAdapters({ requestTimeoutMs: config.providerRequestTimeoutMs, ...(logger && { logger }) }),
    platformCredentials: config.providerCredentials,
    ...(box && { ownCredentials: ownCredentialsFrom(repos, box, config.providerBaseUrls) }),
    providerMode: config.providerMode,
    modelRoutes: config.modelRoutes,
  });
}
