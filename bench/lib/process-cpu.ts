import { readdir, readFile } from 'node:fs/promises';

// Where a benchmark's CPU went, from Linux's /proc: the CPU time of every process under this one
// (the embedded Postgres and its backends, the Temporal dev server, a worker, a provider fake),
// summed per direct child. The time of processes that have exited (cutime, cstime: short-lived
// tools such as ffprobe) is counted apart, as "<name>: exited children".

export interface CpuSnapshot {
  /** CPU milliseconds per direct child of this process (and per its exited children), by label; THIS_PROCESS is its own. */
  byChild: Map<string, number>;
}

const TICKS_PER_SECOND = 100;
/** The label of the benchmark's own process (with a bench stack: the API and the load generator). */
export const THIS_PROCESS = 'this process';

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
  exitedChildrenCpuMs: number;
}

async function statOf(pid: number): Promise<ProcStat | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { pid, ppid: Number(fields[1]), cpuMs: ms(utime! + stime!), exitedChildrenCpuMs: ms(cutime! + cstime!) };
}

async function commandOf(pid: number): Promise<string> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return raw.split('\0').filter(Boolean).join(' ');
}

/**
 * CPU time so far per direct child of this process (with everything under it), labelled by
 * `label(commandLine)`; children with the same label are added up.
 */
export async function cpuSnapshot(label: (commandLine: string) => string): Promise<CpuSnapshot> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = new Map<number, ProcStat>();
  for (const stat of await Promise.all(pids.map(statOf))) if (stat) stats.set(stat.pid, stat);
  const byChild = new Map<string, number>();
  const add = (name: string, ms: number) => byChild.set(name, (byChild.get(name) ?? 0) + ms);
  const self = stats.get(process.pid);
  if (self) add(THIS_PROCESS, self.cpuMs);
  for (const stat of stats.values()) {
    // Walk up to the direct child of this process, if the process is under it at all.
    let top = stat;
    while (top.ppid !== process.pid && top.ppid > 1 && stats.has(top.ppid)) top = stats.get(top.ppid)!;
    if (top.ppid !== process.pid) continue;
    const name = label(await commandOf(top.pid));
    add(name, stat.cpuMs);
    add(`${name}: exited children`, stat.exitedChildrenCpuMs);
  }
  return { byChild };
}

/** CPU milliseconds spent between two snapshots, per label. */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const spent = new Map<string, number>();
  for (const [name, ms] of after.byChild) spent.set(name, ms - (before.byChild.get(name) ?? 0));
  return spent;
}

/** A benchmark's child process by what it runs: the worker, a provider fake, Temporal, Postgres. */
export function benchProcessName(commandLine: string): string {
  if (commandLine.includes('worker/main.ts') || commandLine.includes('bench-worker-main.ts')) return 'worker';
  const fake = /test\/fakes\/([a-z-]+)-server\.ts/.exec(commandLine);
  if (fake) return `${fake[1]} fake`;
  if (commandLine.includes('start-dev')) return 'Temporal dev server';
  // The production mode's server (BENCH_STACK=prod), built into .tools/bin/temporal-server-*.
  if (commandLine.includes('temporal')) return 'Temporal server';
  if (commandLine.includes('postgres')) return 'Postgres';
  return commandLine.slice(0, 40);
}
