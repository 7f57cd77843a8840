import path from 'node:path';
import { startManagedProcess, type ManagedProcess, type Readiness } from './managed-process';
import { workerProcessEnv } from '../worker/process-defaults';
import { PROJECT_ROOT } from './temporal-cli';

// The service's own processes in the production topology: workers (`npm run worker`) and APIs
// (`npm run api`), each a real child process with the environment config/index.ts reads.

export interface ServiceProcessesOptions {
  /** What every process gets (config/index.ts settings); each API adds its PORT. */
  env: Record<string, string>;
  workers: number;
  /** The workers' entry point: worker/main.ts (`npm run worker`) unless a test stack brings its own. */
  workerEntry?: string;
  /** The APIs' entry point: api/main.ts unless a test stack's API runs its own sync worker with stand-ins. */
  apiEntry?: string;
  apiPorts: number[];
  /** Each process's `GET /metrics` port (WORKER_METRICS_PORT, API_METRICS_PORT), by position; none without. */
  metricsPorts?: { workers: number[]; apis: number[] };
  logFile(name: string): string;
  onUnexpectedExit(description: string): void;
}

export interface ServiceProcesses {
  workers: ManagedProcess[];
  apis: ManagedProcess[];
}

/** Readiness of an API process: /healthz answers 200 once Postgres and Temporal answer it. */
async function healthy(url: string): Promise<boolean> {
  const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
  await response.body?.cancel();
  return response.status === 200;
}

/**
 * Starts them side by side (a start is mostly compiling, bundling and connecting, which overlap)
 * and resolves once all are ready. If one fails, those that did start are stopped first.
 */
export async function startServiceProcesses(opts: ServiceProcessesOptions): Promise<ServiceProcesses> {
  const start = (name: string, entry: string, extra: Record<string, string>, ready: Readiness) =>
    startManagedProcess({
      name,
      // node --import tsx, not the tsx CLI: the CLI forks again, and a signal must reach the service itself.
      command: process.execPath,
      args: ['--import', 'tsx', path.join(PROJECT_ROOT, entry)],
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env, ...extra },
      logFile: opts.logFile(name),
      ready,
      readyTimeoutMs: 180_000,
      onUnexpectedExit: opts.onUnexpectedExit,
    });

  const settled = await Promise.allSettled([
    ...Array.from({ length: opts.workers }, (_, i) =>
      start(
        `worker-${i + 1}`,
        opts.workerEntry ?? 'worker/main.ts',
        { ...workerProcessEnv(opts.env), WORKER_METRICS_PORT: String(opts.metricsPorts?.workers[i] ?? 0) },
        { line: '"worker polling"' },
      ),
    ),
    ...opts.apiPorts.map((port, i) =>
      start(
        `api-${i + 1}`,
        opts.apiEntry ?? 'api/main.ts',
        { PORT: String(port), API_METRICS_PORT: String(opts.metricsPorts?.apis[i] ?? 0) },
        { probe: () => healthy(`http://127.0.0.1:${port}`) },
      ),
    ),
  ]);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const started = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failed) {
    await Promise.all(started.map((service) => service.kill()));
    throw failed.reason;
  }
  return { workers: started.slice(0, opts.workers), apis: started.slice(opts.workers) };
}
