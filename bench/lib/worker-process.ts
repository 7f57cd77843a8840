import path from 'node:path';
import type { Config } from '../../config';
import { workerProcessEnv } from '../../worker/process-defaults';
import { NO_ANOMALY_FLOOR } from './chaos-stack';
import { spawnService, type ServiceProcess } from './service-process';

/** `npm run worker` with the benchmarks' floor workflows registered too. */
const BENCH_WORKER_ENTRY = 'bench/lib/bench-worker-main.ts';

// The worker of a bench stack (startBenchStack with inProcessWorker: false) as its own process,
// as `npm run worker` runs it (with the floor workflows, bench/lib/bench-worker-main.ts): its memory is its own to measure, and it gets a core of its own
// instead of sharing the load generator's event loop. It reads the stack's database, Temporal,
// storage and signing secret; `env` adds the provider settings (PROVIDER_MODE, FAL_KEY, ...).
// `opts.entry` runs another worker entry with the same settings, e.g. the one whose providers are
// stood in for by the simulator (PROVIDER_DOUBLES_WORKER), for a bench that steers jobs with `#slow`.

export interface BenchWorker extends ServiceProcess {
  /**
   * Runs a benchmark's measuring part. It fails if the worker exited without being asked to (the
   * figures are then void), and a failure prints the worker's last output.
   */
  measuring<T>(fn: () => Promise<T>): Promise<T>;
}

export async function startBenchWorker(config: Config, dir: string, env: Record<string, string>, opts: { entry?: string } = {}): Promise<BenchWorker> {
  let exit: string | undefined;
  const worker = await spawnService({
    name: 'worker',
    entry: opts.entry ?? BENCH_WORKER_ENTRY,
    ready: '"worker polling"',
    logFile: path.join(dir, 'worker.log'),
    onUnexpectedExit: (description) => {
      exit = description;
      process.stderr.write(`[bench] ${description}\n`);
    },
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: config.databaseUrl,
      TEMPORAL_ADDRESS: config.temporalAddress,
      TEMPORAL_TASK_QUEUE: config.taskQueue,
      LOCAL_STORAGE_DIR: config.localStorageDir,
      // The API's: the worker signs provider callback URLs that the API verifies.
      URL_SIGNING_SECRET: config.urlSigningSecret,
      PUBLIC_BASE_URL: config.publicBaseUrl,
      // A benchmark's wallet spends fast with no history: the anomaly detector would pause it.
      ANOMALY_FLOOR_CREDITS: String(NO_ANOMALY_FLOOR),
      // "worker polling", the ready line, is an info line.
      LOG_LEVEL: 'info',
      // No metrics listener: `npm start` or another benchmark process may hold the default port.
      WORKER_METRICS_PORT: '0',
      // As `npm run worker` starts it (worker/process-defaults.ts); for a diagnosis, more options,
      // e.g. BENCH_WORKER_NODE_OPTIONS='--require ./my-profiler.cjs' (--cpu-prof is not allowed there).
      ...workerProcessEnv({ NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS }),
      ...env,
    },
  });
  return {
    ...worker,
    async measuring(fn) {
      try {
        const result = await fn();
        if (exit) throw new Error(`the worker exited during the run: ${exit}`);
        return result;
      } catch (err) {
        process.stderr.write(`[bench] the worker's last output:\n${worker.tail()}\n`);
        throw err;
      }
    },
  };
}
