import { runWorkerProcess } from '../../worker/main';
import { BENCH_WORKFLOWS_PATH } from './bench-workflows';

// `npm run worker` (worker/main.ts) with the benchmarks' floor workflows registered beside the
// production ones (bench/workflows/), for benchmarks whose worker is a process of its own
// (bench/lib/worker-process.ts).
runWorkerProcess({ workflowsPath: BENCH_WORKFLOWS_PATH });
