// Settings a worker process must have before it starts, so they cannot come from config/index.ts,
// which the process reads once it runs. `npm run worker` (package.json) sets the same two, and
// every launcher of a worker process here (the production mode, the benchmarks) uses this.
//
// - A heap limit: left to itself, V8 sizes the heap from the machine's memory and lets garbage pile
//   up to gigabytes under a steady stream of polls and heartbeats; the worker's live data is about
//   100 MB with 500 async jobs in flight. The operator's own --max-old-space-size wins.
// - A smaller young generation: V8's default semi-space of 16 MB per isolate (the main thread and
//   the workflow thread each have one) fills with the polls' and heartbeats' short-lived garbage;
//   8 MB lowers the peak with 500 jobs in flight at about the same CPU, while 4 MB lowers it
//   further but costs the worker noticeably more CPU per job (see docs/benchmarks.md, bench:async).
// - MALLOC_ARENA_MAX: the SDK's core and the thread pool allocate from many threads, and glibc's
//   default of up to 8 arenas per core keeps freed memory in each of them.

export const WORKER_HEAP_LIMIT_MB = 192;
export const WORKER_SEMI_SPACE_MB = 8;
export const WORKER_MALLOC_ARENA_MAX = 2;

/** The V8 options a worker process starts with, before the operator's own. */
export const WORKER_NODE_OPTIONS = `--max-old-space-size=${WORKER_HEAP_LIMIT_MB} --max-semi-space-size=${WORKER_SEMI_SPACE_MB}`;

/** The variables a worker process starts with: these defaults, under whatever `env` already sets. */
export function workerProcessEnv(env: NodeJS.ProcessEnv): { NODE_OPTIONS: string; MALLOC_ARENA_MAX: string } {
  return {
    // The later flag wins, so the operator's own limit, if any, comes after ours.
    NODE_OPTIONS: `${WORKER_NODE_OPTIONS} ${env.NODE_OPTIONS ?? ''}`.trim(),
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || String(WORKER_MALLOC_ARENA_MAX),
  };
}
