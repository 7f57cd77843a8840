import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { appendFileSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import type { Knex } from 'knex';
import { createApp } from '../../api/app';
import type { ApiDeps } from '../../api/context';
import { startGuardServices } from '../../api/guards/guard-services';
import { createKnex } from '../../db/knex';
import { migrateToLatest } from '../../db/migrate';
import { createRepos, type Repos } from '../../db/repos';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../embedded/postgres';
import { startTemporalDevServer, type TemporalDevServer } from '../../embedded/temporal-server';
import { loadConfig, providerSecretsKeys, type Config } from '../../config';
import { createLogger, silentLogger } from '../../lib/logger';
import { createLocalStorage } from '../../storage/local-storage';
import { createUrlSigner } from '../../storage/url-signer';
import { startWorker } from '../../worker/run-worker';
import { startSyncWorker } from '../../worker/sync-worker';
import { BUNDLER_LOGGER, workflowCode } from '../../worker/bundle-workflows';
import { BENCH_WORKFLOWS_PATH } from '../../bench/lib/bench-workflows';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../workflows/definitions';
import { freePort } from '../../lib/free-port';
import { webhookDepsFromConfig } from '../../config/webhook-settings';
import { createSecretBox, generateSecretBoxKey } from '../../lib/secret-box';
import { REAL_PROVIDERS } from '../../domain/providers';
import { openApiResponseCheck } from './openapi-response-check';
import { selfSignedCertificate, type TestCertificate } from './tls';
import { mediaOriginsOf } from '../../storage/media-origins';
import { PROVIDER_DOUBLE_CREDENTIALS, providerDoubles } from './provider-doubles';
import { startMetricsServer } from '../../observability/metrics-server';

// The real stack, started once per test run: embedded Postgres, a Temporal dev server, one
// in-process worker and one API. Each test makes its own organization.

export interface TestStack {
  config: Config;
  knex: Knex;
  repos: Repos;
  temporal: Client;
  workflowBundle: WorkflowBundle;
  apiUrl: string;
  apiDeps: ApiDeps;
  adminToken: string;
  /** Webhook receivers serve with this certificate; the stack trusts it (WEBHOOK_CA_CERTS). */
  receiverCertificate: TestCertificate;
  /**
   * The API's and the worker's `GET /metrics` (API_METRICS_PORT, WORKER_METRICS_PORT). Both run in
   * this process, so both serve the same registry; the worker's adds the Temporal SDK core's metrics.
   */
  metricsUrls: { api: string; worker: string };
}

/** The newer keys of the secrets-rotation test; the stack opens what they seal. */
export const ROTATION_TEST_KEYS = { webhooks: generateSecretBoxKey(), providers: generateSecretBoxKey() } as const;

let current: TestStack | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

export function stack(): TestStack {
  if (!current) throw new Error('the test stack is not running (test/helpers/global-fixture.ts)');
  return current;
}

export async function startTestStack(): Promise<TestStack> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'generation-service-test-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  // Postgres runs as the `postgres` user when we are root: it must be able to enter this folder.
  await chmod(dir, 0o755);
  const log = (line: string) => process.stderr.write(`  [stack] ${line}\n`);

  const [pg, temporalServer, workflowBundle] = await Promise.all([
    freePort().then((port) =>
      startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port, database: 'test', persistent: false, unsafeFast: true }),
    ) as Promise<EmbeddedPostgresHandle>,
    freePort().then((port) => startTemporalDevServer({ port, log })) as Promise<TemporalDevServer>,
    // The production workflows and the benchmarks' floors (their histories are replayed too).
    bundleWorkflowCode({ ...workflowCode(BENCH_WORKFLOWS_PATH), logger: BUNDLER_LOGGER }),
  ]);
  cleanups.push(
    () => pg.stop(),
    () => temporalServer.stop(),
  );

  const adminToken = 'adm_test_token';
  // The API's port is chosen first: the worker hands providers callback URLs on it.
  const apiPort = await freePort();
  const config: Config = {
    ...loadConfig({}, { embedded: true }),
    port: 0,
    publicBaseUrl: `http://127.0.0.1:${apiPort}`,
    databaseUrl: pg.databaseUrl,
    temporalAddress: temporalServer.address,
    taskQueue: 'test-generations',
    syncTaskQueue: 'test-generations-sync',
    // The API's own sync worker, as in production; API_EMBEDDED_WORKER=false runs the suite without it.
    apiEmbeddedWorker: process.env.API_EMBEDDED_WORKER !== 'false',
    adminToken,
    urlSigningSecret: 'test-url-signing-secret',
    localStorageDir: path.join(dir, 'storage'),
    syncTimeoutMs: 15_000,
    // Async simulator jobs finish quickly in tests; #slow makes a longer one.
    simulatorAsyncLatencyMs: 300,
    // Each kind of secret its own key, as in production. The key the rotation test moves everything
    // to (test/worker/secrets-rotation.test.ts) is already an older key here, so the stack's own
    // processes keep opening what that test re-seals.
    webhookSecretsKey: generateSecretBoxKey(),
    webhookSecretsPreviousKeys: [ROTATION_TEST_KEYS.webhooks],
    providerSecretsKey: generateSecretBoxKey(),
    providerSecretsPreviousKeys: [ROTATION_TEST_KEYS.providers],
    // Six attempts, as in production, a second apart; receivers get 2 s to answer.
    webhookRetryScheduleMs: [0, 1_000, 1_000, 1_000, 1_000, 1_000],
    webhookTimeoutMs: 2_000,
    webhookTaskQueue: 'test-webhooks',
    webhookCaCerts: path.join(dir, 'receiver-ca.pem'),
    // Tests spend fast from wallets with no history: the stack's anomaly detector (a Schedule
    // running every minute) would pause their organizations. Its tests inject their own settings.
    anomalyFloorCredits: 1_000_000_000_000,
    // Live keys run, and are charged, on the real providers, each stood in for in-process by the
    // simulator (test/helpers/provider-doubles.ts); in live mode, as production defaults to.
    providerMode: 'live',
    providerCredentials: { ...PROVIDER_DOUBLE_CREDENTIALS },
    // Ports of their own, as `npm start` and other test runs may hold the defaults.
    apiMetricsPort: await freePort(),
    workerMetricsPort: await freePort(),
  };
  const receiverCertificate = await selfSignedCertificate(['receiver.test']);
  await writeFile(config.webhookCaCerts!, receiverCertificate.cert);

  const knex = createKnex(pg.databaseUrl, { poolMax: 20 });
  cleanups.push(() => knex.destroy());
  await migrateToLatest(knex);

  const worker = await startWorker(config, stackWorkerLogger(), { workflowBundle, providerAdapters: providerDoubles });
  cleanups.push(() => worker.stop());

  const syncWorker = config.apiEmbeddedWorker
    ? await startSyncWorker(config, silentLogger, { address: temporalServer.address, databaseUrl: pg.databaseUrl, workflowBundle, providerAdapters: providerDoubles })
    : undefined;
  if (syncWorker) cleanups.push(() => syncWorker.stop());

  const connection = await Connection.connect({ address: temporalServer.address });
  cleanups.push(() => connection.close());
  const temporal = new Client({ connection });

  const repos = createRepos(knex);
  const guards = await startGuardServices(knex, repos, pg.databaseUrl, silentLogger);
  cleanups.push(() => guards.close());
  const urlSigner = createUrlSigner({ secret: 'test-url-signing-secret', publicBaseUrl: `http://127.0.0.1:${apiPort}`, ttlSeconds: 3600 });
  const apiDeps: ApiDeps = {
    knex,
    repos,
    principals: guards.principals,
    rateLimiter: guards.rateLimiter,
    temporal,
    taskQueue: config.taskQueue,
    ...(syncWorker && { syncStarts: { client: syncWorker.client, taskQueue: syncWorker.taskQueue } }),
    storage: createLocalStorage(config.localStorageDir, urlSigner),
    urlSigner,
    allowPrivateInputUrls: false,
    routing: { providerMode: config.providerMode, configuredProviders: Object.keys(config.providerCredentials) },
    logger: silentLogger,
    adminToken,
    trustedProxies: [],
    rateLimitPerMinute: 100_000,
    syncTimeoutMs: config.syncTimeoutMs,
    admissionTimeoutMs: config.admissionTimeoutMs,
    eventRetentionDays: config.eventRetentionDays,
    outputRetentionDays: config.outputRetentionDays,
    generationTimeouts: DEFAULT_GENERATION_TIMEOUTS,
    providerCallbackSecret: 'test-url-signing-secret',
    clock: () => new Date(),
    webhooks: webhookDepsFromConfig(config)!,
    providerSecrets: createSecretBox(providerSecretsKeys(config)),
    byokProviders: [...REAL_PROVIDERS],
    dashboardMediaOrigins: mediaOriginsOf(config),
  };
  const api = await listen(checkedApp(apiDeps).listen(apiPort, '127.0.0.1'));
  const apiMetrics = await startMetricsServer({ port: config.apiMetricsPort, host: '127.0.0.1' });
  cleanups.push(() => apiMetrics.close());

  current = {
    config,
    knex,
    repos: apiDeps.repos,
    temporal,
    workflowBundle,
    apiUrl: api.url,
    apiDeps,
    adminToken,
    receiverCertificate,
    metricsUrls: { api: apiMetrics.url, worker: worker.metricsUrl! },
  };
  return current;
}

/** A second API on the same stack with some dependencies replaced (a shorter sync timeout, …). */
export async function startExtraApi(overrides: Partial<ApiDeps>): Promise<{ url: string; close(): Promise<void> }> {
  const { syncStarts, ...base } = stack().apiDeps;
  // An API on a queue of the test's own has no worker of its own there: its sync starts go to that
  // queue too (Update-with-Start), as with API_EMBEDDED_WORKER=false, unless the test gives it one.
  const own = overrides.taskQueue === undefined && syncStarts ? { syncStarts } : {};
  return listen(checkedApp({ ...base, ...own, ...overrides }).listen(0, '127.0.0.1'));
}

/** The production app with the OpenAPI response check in front of it (Koa's own middleware list, outermost first). */
function checkedApp(deps: ApiDeps) {
  const app = createApp(deps);
  app.middleware.unshift(openApiResponseCheck());
  return app;
}

async function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  cleanups.push(close);
  return { url, close };
}

export async function stopTestStack(): Promise<void> {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups.length = 0;
  current = undefined;
}

/**
 * The stack's worker logs nowhere, unless TEST_STACK_LOG names a file: then its warnings and errors
 * (a relay pass that failed, a delivery restarted) go there, for a full run that fails where a
 * single file passes.
 */
function stackWorkerLogger() {
  const file = process.env.TEST_STACK_LOG;
  return file ? createLogger({ level: 'warn', write: (line) => appendFileSync(file, line + '\n') }) : silentLogger;
}
