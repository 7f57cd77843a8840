import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startApiServer } from '../../api/server';
import { createKnex } from '../../db/knex';
import { migrateToLatest } from '../../db/migrate';
import { startEmbeddedPostgres } from '../../embedded/postgres';
import { loadConfig, type Config } from '../../config';
import { createLogger } from '../../lib/logger';
import { startWorker } from '../../worker/run-worker';
import { freePort } from '../../lib/free-port';
import { NO_ANOMALY_FLOOR } from './chaos-stack';
import { startBenchTemporal } from './bench-temporal';
import { BENCH_WORKFLOWS_PATH } from './bench-workflows';
import { PROVIDER_DOUBLE_CREDENTIALS, providerDoubles } from '../../test/helpers/provider-doubles';

/**
 * The embedded stack as `npm start` runs it (durable Postgres, a Temporal dev server with a
 * database file, one worker and the real API composition root), in a throwaway folder. With
 * BENCH_STACK=prod, Temporal is the production mode's server on the same Postgres instead
 * (bench/lib/bench-temporal.ts). Every real provider is configured and, in the in-process worker,
 * stood in for by the simulator, unless `overrides` configure providers of their own.
 */
export async function startBenchStack(overrides: Partial<Config> = {}, opts: { inProcessWorker?: boolean } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'generation-service-bench-'));
  await chmod(dir, 0o755);
  const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const pgPort = await freePort();
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: pgPort, database: 'bench', persistent: false });
  const temporal = await startBenchTemporal({ dir, postgres: { superuserUrl: pg.databaseUrl, port: pgPort }, log: say });
  say(`on the ${temporal.label}`);
  const config: Config = {
    ...loadConfig({}, { embedded: true }),
    port: await freePort(),
    databaseUrl: pg.databaseUrl,
    temporalAddress: temporal.address,
    adminToken: 'adm_bench',
    urlSigningSecret: 'bench-secret',
    localStorageDir: path.join(dir, 'storage'),
    logLevel: 'error',
    // No metrics listeners: a benchmark starts several APIs, and `npm start` may hold the default ports.
    apiMetricsPort: 0,
    workerMetricsPort: 0,
    // A benchmark's wallet spends fast with no history: the anomaly detector would pause it.
    anomalyFloorCredits: NO_ANOMALY_FLOOR,
    // Live keys pay as on the real providers, each stood in for by the simulator in the worker
    // (test/helpers/provider-doubles.ts): a simulated live request would reserve nothing.
    providerMode: 'live',
    providerCredentials: { ...PROVIDER_DOUBLE_CREDENTIALS },
    ...overrides,
  };
  config.publicBaseUrl = `http://localhost:${config.port}`;
  const knex = createKnex(pg.databaseUrl);
  await migrateToLatest(knex);
  await knex.destroy();
  const logger = createLogger({ level: 'error' });
  // A benchmark that measures the worker on its own runs it as a child process instead.
  const worker = opts.inProcessWorker === false ? undefined : await startWorker(config, logger, { providerAdapters: providerDoubles, workflowsPath: BENCH_WORKFLOWS_PATH });
  // The API's own sync worker (API_EMBEDDED_WORKER) stands in for the providers as the worker does,
  // unless `overrides` configure providers of their own (a fake upstream the real adapters call).
  const syncWorkerOptions = overrides.providerCredentials === undefined ? { providerAdapters: providerDoubles } : {};
  const api = await startApiServer(config, logger, undefined, syncWorkerOptions);
  return {
    config,
    apiUrl: api.url,
    /** The API's GET /metrics, when `overrides` gave it an apiMetricsPort (the stack's default has none). */
    apiMetricsUrl: api.metricsUrl,
    /** Which Temporal the figures come from (BENCH_STACK). */
    temporalLabel: temporal.label,
    /** The throwaway folder (Postgres data, the Temporal database file, storage); removed by stop(). */
    dir,
    async startExtraApi(extra: Partial<Config>) {
      return startApiServer({ ...config, port: await freePort(), ...extra }, logger, undefined, syncWorkerOptions);
    },
    async stop() {
      await api.close();
      await worker?.stop();
      await temporal.stop();
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
