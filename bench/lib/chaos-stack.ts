import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '../../db/knex';
import { migrateToLatest } from '../../db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../embedded/postgres';
import { startTemporalDevServer, type TemporalDevServer } from '../../embedded/temporal-server';
import { freePort } from '../../lib/free-port';
import { PROVIDER_DOUBLE_ENV, PROVIDER_DOUBLES_API, PROVIDER_DOUBLES_WORKER } from '../../test/helpers/provider-doubles';
import { spawnService, type ServiceProcess, type ServiceSpec } from './service-process';

// The embedded stack with every piece restartable, for fault injection: durable Postgres and a
// Temporal dev server with a database file (each stopped and started again on the same port and
// files), and the API and the worker as their own processes. A service that exits by itself is
// recorded and started again, so one finding does not end the run. Live keys run on the real
// providers as in-process doubles (test/helpers/provider-doubles.ts), and pay: in the worker, and
// in the API's own sync worker (API_EMBEDDED_WORKER, on by default as in production; the run's
// environment may turn it off to compare).

/** When a dependency went away and when it was serving again (Date.now() times). */
export interface FaultWindow {
  dependency: 'api' | 'worker' | 'temporal' | 'postgres';
  downAt: number;
  backAt: number;
}

export interface ChaosStackOptions {
  /** Extra environment for the API process and the worker process (SYNC_TIMEOUT_MS, …). */
  apiEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
  say(line: string): void;
}

const ADMIN_TOKEN = 'adm_chaos';
const RESPAWN_DEADLINE_MS = 120_000;

/** A floor no run reaches: benchmarks and chaos runs measure the service, not the detector. */
export const NO_ANOMALY_FLOOR = 1_000_000_000_000;

export async function startChaosStack(opts: ChaosStackOptions) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'generation-service-chaos-'));
  await chmod(dir, 0o755);
  const logDir = path.join(dir, 'logs');
  await mkdir(logDir);
  const pgOptions = { dataDir: path.join(dir, 'pg'), port: await freePort(), database: 'chaos', persistent: true };
  const temporalOptions = { port: await freePort(), dbFilename: path.join(dir, 'temporal.db'), log: opts.say };
  let pg: EmbeddedPostgresHandle | undefined = await startEmbeddedPostgres(pgOptions);
  let temporal: TemporalDevServer | undefined = await startTemporalDevServer(temporalOptions);
  const migrator = createKnex(pg.databaseUrl);
  await migrateToLatest(migrator);
  await migrator.destroy();

  const apiPort = await freePort();
  const apiUrl = `http://localhost:${apiPort}`;
  const shared = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: pg.databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    LOCAL_STORAGE_DIR: path.join(dir, 'storage'),
    // Live keys are charged as on the real providers, each stood in for by the simulator in the
    // worker (test/helpers/provider-doubles.ts), so the run keeps its money teeth: in live mode a
    // live request never runs on the simulator itself, and in simulated mode it would cost nothing.
    PROVIDER_MODE: 'live',
    ...PROVIDER_DOUBLE_ENV,
    URL_SIGNING_SECRET: 'chaos-url-signing-secret',
    PUBLIC_BASE_URL: apiUrl,
    LOG_LEVEL: 'info',
    // The chaos workload spends thousands of credits a minute from a wallet with no history: the
    // anomaly detector would pause it mid-run. Its own tests cover it.
    ANOMALY_FLOOR_CREDITS: String(NO_ANOMALY_FLOOR),
    // No metrics listeners: `npm start` or another run may hold the default ports.
    API_METRICS_PORT: '0',
    WORKER_METRICS_PORT: '0',
  };
  const unexpectedExits: string[] = [];
  const services: Record<'api' | 'worker', { spec: ServiceSpec; current?: ServiceProcess; respawning?: Promise<void> }> = {
    api: {
      spec: spec('api', PROVIDER_DOUBLES_API, '"api listening"', {
        ...shared,
        PORT: String(apiPort),
        ADMIN_TOKEN,
        ...(process.env.API_EMBEDDED_WORKER !== undefined && { API_EMBEDDED_WORKER: process.env.API_EMBEDDED_WORKER }),
        ...opts.apiEnv,
      }),
    },
    worker: { spec: spec('worker', PROVIDER_DOUBLES_WORKER, '"worker polling"', { ...shared, ...opts.workerEnv }) },
  };
  let generation = 0;

  function spec(name: 'api' | 'worker', entry: string, ready: string, env: NodeJS.ProcessEnv): ServiceSpec {
    return {
      name,
      entry,
      env,
      ready,
      logFile: path.join(logDir, `${name}.log`),
      onUnexpectedExit(description) {
        unexpectedExits.push(description);
        opts.say(description);
        services[name].current = undefined;
        services[name].respawning = start(name)
          .catch((err: Error) => void unexpectedExits.push(`${name} could not be started again: ${err.message}`))
          .finally(() => (services[name].respawning = undefined));
      },
    };
  }

  /** Starts a service, retrying while a dependency it needs at start is still down. */
  async function start(name: 'api' | 'worker'): Promise<void> {
    const deadline = Date.now() + RESPAWN_DEADLINE_MS;
    for (;;) {
      try {
        services[name].current = await spawnService({ ...services[name].spec, name: `${name} #${++generation}` });
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        opts.say(`${name} did not start, retrying in 2 s: ${(err as Error).message.slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    }
  }

  await start('api');
  await start('worker');
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    apiUrl,
    adminToken: ADMIN_TOKEN,
    databaseUrl: pg.databaseUrl,
    temporalAddress: temporal.address,
    /** The throwaway folder: Postgres data, the Temporal database file, storage, and logs/ with each service's output. */
    dir,
    /** Descriptions of every service exit nobody asked for. */
    unexpectedExits,
    workerPid: () => services.worker.current?.pid,
    apiPid: () => services.api.current?.pid,

    /** SIGKILLs the API mid-request, waits `outageMs`, then starts a new one on the same port; back once it listens. */
    async restartApi(outageMs = 0): Promise<FaultWindow> {
      await services.api.respawning;
      const downAt = Date.now();
      await services.api.current?.kill();
      await sleep(outageMs);
      await start('api');
      return { dependency: 'api', downAt, backAt: Date.now() };
    },

    /** SIGKILLs the worker, waits `outageMs`, then starts a new one; back once the new one polls. */
    async restartWorker(outageMs = 0): Promise<FaultWindow> {
      await services.worker.respawning;
      const downAt = Date.now();
      await services.worker.current?.kill();
      await sleep(outageMs);
      await start('worker');
      return { dependency: 'worker', downAt, backAt: Date.now() };
    },

    /** Stops the Temporal dev server, waits `outageMs`, starts it again on the same port and file. */
    async restartTemporal(outageMs: number): Promise<FaultWindow> {
      const downAt = Date.now();
      await temporal?.stop();
      temporal = undefined;
      await sleep(outageMs);
      temporal = await startTemporalDevServer(temporalOptions);
      return { dependency: 'temporal', downAt, backAt: Date.now() };
    },

    /** Stops Postgres (fast shutdown: clients are cut off), waits `outageMs`, starts it again on the same data. */
    async restartPostgres(outageMs: number): Promise<FaultWindow> {
      const downAt = Date.now();
      await pg?.stop();
      pg = undefined;
      await sleep(outageMs);
      pg = await startEmbeddedPostgres(pgOptions);
      return { dependency: 'postgres', downAt, backAt: Date.now() };
    },

    /** Stops everything; keeps the folder (logs included) when `keep` is set. */
    async stop(keep = false) {
      for (const name of ['api', 'worker'] as const) {
        await services[name].respawning?.catch(() => undefined);
        await services[name].current?.stop();
      }
      await temporal?.stop();
      await pg?.stop();
      if (!keep) await rm(dir, { recursive: true, force: true });
    },
  };
}
