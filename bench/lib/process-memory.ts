import { readFile, writeFile } from 'node:fs/promises';

// Another process's memory, from Linux's /proc: its resident set now (VmRSS) and its peak since it
// started or since the peak was last reset (VmHWM). Benchmarks use it on the worker they spawned.

export interface ProcessMemory {
  rssBytes: number;
  peakBytes: number;
}

export async function memoryOf(pid: number): Promise<ProcessMemory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rssBytes: kb('VmRSS'), peakBytes: kb('VmHWM') };
}

/**
 * Resets the process's VmHWM to its current RSS (writing 5 to clear_refs, Linux 4.0+), so that a
 * later peak is the load's, not the start's (bundling the workflow code peaks higher than a light
 * load). Answers false when the kernel refuses; the peak then counts from the process's start.
 */
export async function resetPeak(pid: number): Promise<boolean> {
  return writeFile(`/proc/${pid}/clear_refs`, '5').then(
    () => true,
    () => false,
  );
}

/** Samples VmRSS every `everyMs` until stop(), which answers the highest sample. */
export function sampleRss(pid: number, everyMs: number): { stop(): number } {
  let highest = 0;
  const timer = setInterval(() => {
    memoryOf(pid).then(
      (m) => void (highest = Math.max(highest, m.rssBytes)),
      () => undefined,
    );
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return highest;
    },
  };
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
