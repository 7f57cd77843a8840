import type { Repos } from '../db/repos';
import { ownCredentialsFrom } from '../activities/providers/own-credentials';
import { createRealAdapters } from '../activities/providers/real-adapters';
import { createProviderRegistry, type ProviderRegistry } from '../activities/providers/registry';
import { createSimulator } from '../activities/providers/simulator';
import { providerSecretsKeys, type Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { secretBoxOf } from '../lib/secret-box';

/** The worker's providers as configured: the simulator, every real adapter, platform and BYOK keys. */
export function providerRegistryFromConfig(config: Config, repos: Repos, logger?: Logger): ProviderRegistry {
  const box = secretBoxOf(providerSecretsKeys(config));
  return createProviderRegistry({
    simulator: createSimulator({ asyncLatencyMs: config.simulatorAsyncLatencyMs }),
    adapters: createRealAdapters({ requestTimeoutMs: config.providerRequestTimeoutMs, ...(logger && { logger }) }),
    platformCredentials: config.providerCredentials,
    ...(box && { ownCredentials: ownCredentialsFrom(repos, box, config.providerBaseUrls) }),
    providerMode: config.providerMode,
    modelRoutes: config.modelRoutes,
  });
}
