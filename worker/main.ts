import { loadConfig } from '../config';
import { createLogger, describeError } from '../lib/logger';
import { startWorker } from './run-worker';

// `npm run worker`: one worker process, against DATABASE_URL and TEMPORAL_ADDRESS.

/** Runs a worker process until SIGINT or SIGTERM; `options` are for entries that stand in for providers. */
export function runWorkerProcess(options: Parameters<typeof startWorker>[2] = {}): void {
  const main = async () => {
    const config = loadConfig();
    const logger = createLogger({ level: config.logLevel, base: { service: 'worker' } });
    const worker = await startWorker(config, logger, options);
    const stop = () => void worker.stop().then(() => process.exit(0));
    process.once('SIGINT', stop).once('SIGTERM', stop);
    await worker.done;
  };
  main().catch((err) => {
    console.error(JSON.stringify({ level: 'error', msg: 'worker failed', ...describeError(err) }));
    process.exit(1);
  });
}

if (require.main === module) runWorkerProcess();
