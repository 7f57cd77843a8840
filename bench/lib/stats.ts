// Latency figures for benchmarks: percentiles and a bounded closed-loop load runner.

export interface LoadResult {
  latenciesMs: number[];
  wallMs: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function summarize(result: LoadResult) {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    perSecond: (sorted.length / result.wallMs) * 1000,
    errors: result.errors,
  };
}

/** `total` calls of `fn`, at most `concurrency` in flight; every call is timed. */
export async function runLoad(total: number, concurrency: number, fn: () => Promise<boolean>): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let started = 0;
  let errors = 0;
  const begin = performance.now();
  const lane = async () => {
    while (started < total) {
      started++;
      const t0 = performance.now();
      const ok = await fn().catch(() => false);
      if (ok) latenciesMs.push(performance.now() - t0);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { latenciesMs, wallMs: performance.now() - begin, errors };
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
