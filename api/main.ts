import { loadConfig } from '../config';
import { createLogger, describeError } from '../lib/logger';
import { SERVICE_NAMES, startTracingIfEnabled } from '../observability/tracing';
import type { startApiServer } from './server';

// `npm run api`: the API alone, against DATABASE_URL and TEMPORAL_ADDRESS.

/** Runs the API process until SIGINT or SIGTERM; `syncWorkerOptions` are for entries that stand in for providers. */
export function runApiProcess(syncWorkerOptions: Parameters<typeof startApiServer>[3] = {}): void {
  main(syncWorkerOptions).catch((err) => {
    console.error(JSON.stringify({ level: 'error', msg: 'api failed to start', ...describeError(err) }));
    process.exit(1);
  });
}

async function main(syncWorkerOptions: Parameters<typeof startApiServer>[3]) {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, base: { service: 'api' } });
  // Before the server's modules load: the instrumentations patch http and pg as they load.
  const tracing = startTracingIfEnabled(config.otlpTracing, SERVICE_NAMES.api, logger);
  const { startApiServer } = require('./server') as typeof import('./server');
  const api = await startApiServer(config, logger, tracing, syncWorkerOptions);
  logger.info('api listening', { url: api.url, metrics_url: api.metricsUrl ?? null, tracing: tracing !== undefined });
  // A close that fails still ends the process, with the reason logged, instead of an unhandled rejection.
  const stop = () => {
    api
      .close()
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error('api failed to close', describeError(err));
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

if (require.main === module) runApiProcess();
