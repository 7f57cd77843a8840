// What bench and test workers register: every production workflow (workflows/index.ts) and the
// benchmarks' floors. Workflow code only, bundled like workflows/index.ts; BENCH_WORKFLOWS_PATH
// (bench/lib/bench-workflows.ts) points a worker's bundle here.
export * from '../../workflows';
export { bareWorkflow, floorWorkflow } from './floor';
