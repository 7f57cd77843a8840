import { loadConfig } from '../config';
import { createLogger, describeError } from '../lib/logger';
import { SERVICE_NAMES, startTracingIfEnabled } from '../observability/tracing';
import type { startWorker } from './run-worker';

// `npm run worker`: one worker process, against DATABASE_URL and TEMPORAL_ADDRESS.

/** Runs a worker process until SIGINT or SIGTERM; `options` are for entries that stand in for providers. */
export function runWorkerProcess(options: Omit<Parameters<typeof startWorker>[2], 'tracing'> = {}): void {
  const main = async () => {
    const config = loadConfig();
    const logger = createLogger({ level: config.logLevel, base: { service: 'worker' } });
    // Before the worker's modules load: the instrumentations patch http and pg as they load.
    const tracing = startTracingIfEnabled(config.otlpTracing, SERVICE_NAMES.worker, logger);
    const { startWorker } = require('./run-worker') as typeof import('./run-worker');
    const worker = await startWorker(config, logger, { ...options, ...(tracing && { tracing }) });
    // The spans still batched are exported before the process ends.
    const stop = () =>
      void worker
        .stop()
        .then(() => tracing?.shutdown())
        .finally(() => process.exit(0));
    process.once('SIGINT', stop).once('SIGTERM', stop);
    await worker.done;
  };
  main().catch((err) => {
    console.error(JSON.stringify({ level: 'error', msg: 'worker failed', ...describeError(err) }));
    process.exit(1);
  });
}

if (require.main === module) runWorkerProcess();
