import { runWorkerProcess } from '../../worker/main';
import { providerDoubles } from './provider-doubles';

// `npm run worker` (worker/main.ts) with the real providers stood in for by the simulator
// (test/helpers/provider-doubles.ts), for stacks whose worker is a process of its own (the chaos
// run). Give it, and the API, PROVIDER_DOUBLE_ENV: then live keys route to the real providers and
// are charged as on them.
runWorkerProcess({ providerAdapters: providerDoubles });
