import type { Knex } from 'knex';
import type { Config } from '../config';
import { createRepos } from '../db/repos';
import { providerCallbackUrl } from '../domain/callback-token';
import type { Logger } from '../lib/logger';
import { createStorage } from '../storage';
import type { WorkerDeps } from './create-worker';
import { providerRegistryFromConfig } from './provider-registry';

// What a generation's activities need from the configuration (storage, providers, callback URLs),
// composed here once for the two places that run them: the worker process (worker/run-worker.ts)
// and the API's own sync worker (worker/sync-worker.ts).

export function generationDepsFromConfig(
  config: Config,
  knex: Knex,
  logger: Logger,
  providerAdapters?: Parameters<typeof providerRegistryFromConfig>[3],
): Pick<WorkerDeps, 'storage' | 'providers' | 'allowPrivateOutputUrls' | 'callbackUrlFor'> {
  return {
    storage: createStorage(config),
    providers: providerRegistryFromConfig(config, createRepos(knex), logger, providerAdapters),
    allowPrivateOutputUrls: config.allowPrivateInputUrls,
    ...(config.urlSigningSecret && {
      callbackUrlFor: (id: string, expiresAt: Date) => providerCallbackUrl(config.publicBaseUrl, config.urlSigningSecret!, id, expiresAt),
    }),
  };
}
