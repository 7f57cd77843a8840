// Where bench and test workers take their workflow code from: the production workflows plus the
// benchmarks' floors (bench/workflows/index.ts). The production worker bundles workflows/index.ts
// only (worker/bundle-workflows.ts); this path is the one way to add the floors to a worker.
export const BENCH_WORKFLOWS_PATH = require.resolve('../workflows');
