import path from 'node:path';
import type { Config } from '../../config';
import { freePort } from '../../lib/free-port';
import { spawnService, type ServiceProcess } from './service-process';

// The API of a bench stack (startBenchStack) as its own process, as `npm run api` runs it, for a
// benchmark that must tell the API's CPU apart from the load generator's (with the API in the
// bench's own process the two share one CPU figure). It reads the stack's database, Temporal,
// storage and secrets; `env` adds the provider settings (PROVIDER_MODE, OPENAI_COMPATIBLE_*, ...).

export interface BenchApi extends ServiceProcess {
  url: string;
  /** Its GET /metrics (API_METRICS_PORT): what bench/lib/api-metrics.ts reads. */
  metricsUrl: string;
  /** Set once the API has exited without being stopped: the figures are then void. */
  exitedUnexpectedly(): string | undefined;
}

export async function startBenchApi(config: Config, dir: string, env: Record<string, string>): Promise<BenchApi> {
  const port = await freePort();
  const metricsPort = await freePort();
  let exit: string | undefined;
  const api = await spawnService({
    name: 'api',
    entry: 'api/main.ts',
    // "api listening", the ready line, is an info line; info is also the production default.
    ready: '"api listening"',
    logFile: path.join(dir, 'api.log'),
    onUnexpectedExit: (description) => {
      exit = description;
      process.stderr.write(`[bench] ${description}\n`);
    },
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATABASE_URL: config.databaseUrl,
      TEMPORAL_ADDRESS: config.temporalAddress,
      TEMPORAL_TASK_QUEUE: config.taskQueue,
      LOCAL_STORAGE_DIR: config.localStorageDir,
      URL_SIGNING_SECRET: config.urlSigningSecret,
      // The stack's: the worker signs provider callback URLs against it.
      PUBLIC_BASE_URL: config.publicBaseUrl,
      ADMIN_TOKEN: config.adminToken,
      ANOMALY_FLOOR_CREDITS: String(config.anomalyFloorCredits),
      LOG_LEVEL: 'info',
      // A free port, not the default one: `npm start` or another benchmark process may hold it.
      API_METRICS_PORT: String(metricsPort),
      // Its own sync worker is on by default; `API_EMBEDDED_WORKER=false npm run bench:chat` measures without it.
      ...(process.env.API_EMBEDDED_WORKER !== undefined && { API_EMBEDDED_WORKER: process.env.API_EMBEDDED_WORKER }),
      ...env,
    },
  });
  return { ...api, url: `http://localhost:${port}`, metricsUrl: `http://localhost:${metricsPort}/metrics`, exitedUnexpectedly: () => exit };
}
