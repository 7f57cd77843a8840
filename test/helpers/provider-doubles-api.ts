import { runApiProcess } from '../../api/main';
import { providerDoubles } from './provider-doubles';

// `npm run api` (api/main.ts) whose own sync worker (API_EMBEDDED_WORKER) has the real providers
// stood in for by the simulator, as PROVIDER_DOUBLES_WORKER's worker has: for stacks of processes
// whose API runs sync jobs itself. Give it PROVIDER_DOUBLE_ENV, as the worker.
runApiProcess({ providerAdapters: providerDoubles });
