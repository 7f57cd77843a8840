import { loadConfig } from '../config';
import { createLogger, describeError } from '../lib/logger';
import { startApiServer } from './server';

// `npm run api`: the API alone, against DATABASE_URL and TEMPORAL_ADDRESS.
async function main() {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, base: { service: 'api' } });
  const api = await startApiServer(config, logger);
  logger.info('api listening', { url: api.url, metrics_url: api.metricsUrl ?? null });
  // A close that fails still ends the process, with the reason logged, instead of an unhandled rejection.
  const stop = () => {
    api.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('api failed to close', describeError(err));
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'error', msg: 'api failed to start', ...describeError(err) }));
  process.exit(1);
});
