import { loadConfig } from '../../lib/config';
import { createLogger, describeError } from '../../lib/logger';
import { startWorker } from '../../worker/run-worker';
import { providerDoubles } from './provider-doubles';

// `npm run worker` (worker/main.ts) with the real providers stood in for by the simulator
// (test/helpers/provider-doubles.ts), for stacks whose worker is a process of its own (the chaos
// run). Give it, and the API, PROVIDER_DOUBLE_ENV: then live keys route to the real providers and
// are charged as on them.
async function main() {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, base: { service: 'worker' } });
  const worker = await startWorker(config, logger, { providerAdapters: providerDoubles });
  const stop = () => void worker.stop().then(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
  await worker.done;
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'error', msg: 'worker failed', ...describeError(err) }));
  process.exit(1);
});
