import type { Server } from 'node:http';
import { Client } from '@temporalio/client';
import { webhookDepsFromConfig } from '../config/webhook-settings';
import { createRepos } from '../db/repos';
import { ConfigError, providerSecretsKeys, requireSetting, type Config } from '../config';
import { parseIpRange, type IpRange } from '../lib/ip-ranges';
import { secretBoxOf } from '../lib/secret-box';
import type { RealProvider } from '../domain/providers';
import type { Logger } from '../lib/logger';
import type { Tracing } from '../observability/tracing';
import { createStorage } from '../storage';
import { createUrlSigner } from '../storage/url-signer';
import { DEFAULT_GENERATION_TIMEOUTS } from '../workflows/definitions';
import { createApp } from './app';
import type { ApiDeps } from './context';
import { connectApiTemporal, createApiKnex } from './dependency-connections';
import { startGuardServices } from './guards/guard-services';
import { mediaOriginsOf } from '../storage/media-origins';
import { startMetricsServer, type MetricsServer } from '../observability/metrics-server';
import { startSyncWorker } from '../worker/sync-worker';

function parseTrustProxy(entries: string[]): IpRange[] {
  return entries.map((entry) => {
    const range = parseIpRange(entry, { allowBareAddress: true });
    if (!range) throw new ConfigError(`TRUST_PROXY: "${entry}" is not an IP address or CIDR range`);
    return range;
  });
}

/** How long an idle keep-alive connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * The API's composition root: connections, dependencies, the Koa app, the listening server. With
 * `tracing` (api/main.ts), requests get server spans and the workflows they start join their traces.
 */
export async function startApiServer(
  config: Config,
  logger: Logger,
  tracing?: Tracing,
  /** For the API's own sync worker (API_EMBEDDED_WORKER): a test's bundle and provider stand-ins. */
  syncWorkerOptions: Pick<Parameters<typeof startSyncWorker>[2], 'workflowBundle' | 'providerAdapters'> = {},
): Promise<{ server: Server; url: string; metricsUrl: string | undefined; close(): Promise<void> }> {
  const databaseUrl = requireSetting(config.databaseUrl, 'DATABASE_URL', 'the API keeps its records in Postgres');
  const temporalAddress = requireSetting(config.temporalAddress, 'TEMPORAL_ADDRESS', 'the API starts Temporal workflows');
  const urlSigningSecret = requireSetting(config.urlSigningSecret, 'URL_SIGNING_SECRET', 'output URLs are signed; every API process needs the same secret');

  const urlSigner = createUrlSigner({ secret: urlSigningSecret, publicBaseUrl: config.publicBaseUrl, ttlSeconds: config.outputUrlTtlSeconds });
  const storage = createStorage(config, urlSigner);

  const knex = createApiKnex(databaseUrl);
  const repos = createRepos(knex);
  const guards = await startGuardServices(knex, repos, databaseUrl, logger);
  const connection = await connectApiTemporal(temporalAddress);
  // API_EMBEDDED_WORKER: sync generations start eagerly on the API's own worker (worker/sync-worker.ts).
  const syncWorker = config.apiEmbeddedWorker
    ? await startSyncWorker(config, logger.child({ component: 'embedded-sync-worker' }), {
        ...syncWorkerOptions,
        address: temporalAddress,
        databaseUrl,
        ...(tracing && { tracing }),
      })
    : undefined;
  const deps: ApiDeps = {
    knex,
    repos,
    principals: guards.principals,
    rateLimiter: guards.rateLimiter,
    temporal: new Client({ connection, namespace: config.temporalNamespace, ...(tracing && { interceptors: tracing.clientInterceptors() }) }),
    taskQueue: config.taskQueue,
    ...(syncWorker && { syncStarts: { client: syncWorker.client, taskQueue: syncWorker.taskQueue } }),
    storage,
    urlSigner,
    allowPrivateInputUrls: config.allowPrivateInputUrls,
    routing: { providerMode: config.providerMode, configuredProviders: Object.keys(config.providerCredentials), modelRoutes: config.modelRoutes },
    logger,
    adminToken: config.adminToken,
    trustedProxies: parseTrustProxy(config.trustProxy),
    rateLimitPerMinute: config.rateLimitPerMinute,
    syncTimeoutMs: config.syncTimeoutMs,
    admissionTimeoutMs: config.admissionTimeoutMs,
    eventRetentionDays: config.eventRetentionDays,
    outputRetentionDays: config.outputRetentionDays,
    generationTimeouts: DEFAULT_GENERATION_TIMEOUTS,
    providerCallbackSecret: urlSigningSecret,
    clock: () => new Date(),
    ...withWebhooks(config),
    ...withProviderSecrets(config),
    byokProviders: Object.keys(config.providerBaseUrls) as RealProvider[],
    dashboardMediaOrigins: mediaOriginsOf(config),
    ...(tracing && { tracer: tracing.tracer }),
  };
  const server = createApp(deps).listen(config.port);
  // An idle keep-alive connection outlives a load balancer's (60 s on the common ones), so it is
  // always the client side that closes it: with Node's 5 s default, a client (or balancer) reusing a
  // connection just as the server closes it gets a reset instead of an answer.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Prometheus scrapes its own port: the public one never serves /metrics (docs/operations.md, "Metrics").
  // With its own sync worker, the Temporal SDK's metrics of that worker come in the same answer.
  const metrics: MetricsServer | undefined =
    config.apiMetricsPort === 0 ? undefined : await startMetricsServer({ port: config.apiMetricsPort, sdkCoreMetricsAddress: syncWorker?.sdkCoreMetricsAddress });
  return {
    server,
    url: `http://localhost:${port}`,
    metricsUrl: metrics?.url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await metrics?.close();
      await syncWorker?.stop();
      await connection.close();
      await guards.close();
      await knex.destroy();
    },
  };
}

function withWebhooks(config: Config): Pick<ApiDeps, 'webhooks'> {
  const webhooks = webhookDepsFromConfig(config);
  return webhooks ? { webhooks } : {};
}

/** Without PROVIDER_SECRETS_KEY, storing a provider key answers 503 (never sealed with another key). */
function withProviderSecrets(config: Config): Pick<ApiDeps, 'providerSecrets'> {
  const providerSecrets = secretBoxOf(providerSecretsKeys(config));
  return providerSecrets ? { providerSecrets } : {};
}
