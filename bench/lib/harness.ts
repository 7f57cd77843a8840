import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The one harness every benchmark runs through, so that each tells the truth the same way:
// - sides are measured in interleaved rounds, each side going first in turn (`interleaved`), and a
//   ratio is the median of the per-round ratios with its range (`ratioOf`), so drift on a shared
//   machine (a warm cache, a vacuum, another process) lands on both sides;
// - every error or timeout the plan does not expect is recorded (`unexpected`) and voids the run;
// - the last line printed is the verdict: each target with its figure and PASS/FAIL;
// - the result is written as JSON to bench/results/<bench>.json (figures, targets, commit, machine),
//   from which `npm run bench:report` regenerates docs/benchmarks.md's table.
//
// Exit codes: 0 every target passed (or the bench states none), 2 a target failed (a measured
// result, not a broken run), 1 the run is void (an unexpected error, or it crashed).

/** One target of a benchmark and where this run stands against it. */
export interface TargetResult {
  /** What is measured, e.g. "sync image p50 / floor p50, c=8". */
  name: string;
  /** The target, as a reader states it, e.g. "≤ 1.3x". */
  target: string;
  /** This run's figure, e.g. "1.21x (range 1.12–1.35x, 5 rounds)". */
  result: string;
  /** Undefined: a figure reported without a target. */
  pass?: boolean;
}

export interface BenchReport {
  targets: TargetResult[];
  /** Every figure worth keeping, for comparing runs; free-form but JSON. */
  figures: Record<string, unknown>;
  /** Notes that qualify the figures (which stack, which scale), printed and kept with them. */
  notes?: string[];
}

export interface BenchResultFile extends BenchReport {
  bench: string;
  command: string;
  commit: string;
  /** Uncommitted changes were present: the figures are not exactly the commit's. */
  dirty: boolean;
  finishedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; platform: string; node: string };
  env: Record<string, string>;
  errors: string[];
  verdict: 'PASS' | 'FAIL' | 'VOID' | 'REPORTED';
}

/** Unexpected errors seen during the run; any one voids it. */
export class ErrorLog {
  readonly seen: string[] = [];
  unexpected(where: string, detail: unknown): void {
    const text = detail instanceof Error ? detail.message : String(detail);
    if (this.seen.length < 50) this.seen.push(`${where}: ${text}`);
    else if (this.seen.length === 50) this.seen.push('… more errors not listed');
    process.stderr.write(`[bench] unexpected error in ${where}: ${text}\n`);
  }
  /** Records `count` failures of `where` (a load phase's failed calls), if there were any. */
  failures(where: string, count: number): void {
    if (count > 0) this.unexpected(where, `${count} call(s) failed or timed out`);
  }
}

/**
 * Runs `round` for each side, `rounds` times, the order rotating so each side goes first in turn
 * (two sides: A,B then B,A ...). Returns each side's per-round results, in round order.
 */
export async function interleaved<S extends string, T>(rounds: number, sides: readonly S[], round: (side: S, index: number) => Promise<T>): Promise<Record<S, T[]>> {
  const out = Object.fromEntries(sides.map((s) => [s, [] as T[]])) as Record<S, T[]>;
  for (let i = 0; i < rounds; i++) {
    const order = sides.map((_, k) => sides[(k + i) % sides.length]!);
    for (const side of order) {
      process.stderr.write(`[bench] round ${i + 1}/${rounds}: ${side}\n`);
      out[side].push(await round(side, i));
    }
  }
  return out;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of per-round ratios a[i]/b[i], with their range. */
export function ratioOf(a: number[], b: number[]): { median: number; min: number; max: number; rounds: number } {
  const ratios = a.map((x, i) => x / b[i]!);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), rounds: ratios.length };
}

export function formatRatio(r: { median: number; min: number; max: number; rounds: number }): string {
  return `${r.median.toFixed(2)}x (range ${r.min.toFixed(2)}–${r.max.toFixed(2)}x, ${r.rounds} rounds)`;
}

function gitState(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}

function machine(): BenchResultFile['machine'] {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  };
}

export const RESULTS_DIR = path.join(__dirname, '..', 'results');

/**
 * Runs a benchmark under the harness: prints its report, writes its JSON result, prints the
 * verdict as the last line and exits (0 pass, 2 a target failed, 1 void). `name` is the npm script
 * without its `bench:` prefix (`images` for `npm run bench:images`).
 */
export function runBenchmark(name: string, main: (errors: ErrorLog) => Promise<BenchReport>, opts: { command?: string } = {}): void {
  const errors = new ErrorLog();
  // `opts.command`: a bench whose mode is chosen by arguments (npm run chaos -- --soak …) records how it was run.
  const command = opts.command ?? (name === 'chaos' ? 'npm run chaos' : `npm run bench:${name}`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')) as [string, string][]);
  main(errors).then(
    (report) => finish(name, command, env, errors, report),
    (err: unknown) => {
      console.error(err);
      errors.unexpected('the run', err);
      finish(name, command, env, errors, { targets: [], figures: {} });
    },
  );
}

function finish(name: string, command: string, env: Record<string, string>, errors: ErrorLog, report: BenchReport): void {
  const withTarget = report.targets.filter((t) => t.pass !== undefined);
  const verdict: BenchResultFile['verdict'] = errors.seen.length > 0 ? 'VOID' : withTarget.some((t) => !t.pass) ? 'FAIL' : withTarget.length > 0 ? 'PASS' : 'REPORTED';
  const file: BenchResultFile = { bench: name, command, ...gitState(), finishedAt: new Date().toISOString(), machine: machine(), env, errors: errors.seen, verdict, ...report };
  // A quick look (BENCH_SCALE below 1) is printed but does not replace the recorded full run.
  const scaled = env.BENCH_SCALE !== undefined && Number(env.BENCH_SCALE) < 1;
  const out = path.join(RESULTS_DIR, scaled ? `${name}.scaled.json` : `${name}.json`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(out, JSON.stringify(file, null, 2) + '\n');
  for (const note of report.notes ?? []) console.log(`note: ${note}`);
  for (const t of report.targets) console.log(`${t.name}: ${t.result}${t.pass === undefined ? '' : `; target ${t.target}: ${t.pass ? 'PASS' : 'FAIL'}`}`);
  if (errors.seen.length > 0) console.log(`errors (${errors.seen.length}):\n  ${errors.seen.join('\n  ')}`);
  console.log(`result written to ${path.relative(process.cwd(), out)}`);
  // A bench that states no target still ends on its figures, so its last line says what it found.
  const summary =
    withTarget.length > 0
      ? withTarget.map((t) => `${t.name} ${t.target}: ${t.result.split(' (')[0]} ${t.pass ? 'PASS' : 'FAIL'}`).join('; ')
      : report.targets.map((t) => `${t.name}: ${t.result.split(' (')[0]} (no target)`).join('; ');
  console.log(`${name}: ${verdict}${verdict === 'VOID' ? ' (unexpected errors; the figures do not count)' : ''}${summary ? ` — ${summary}` : ''}`);
  process.exit(verdict === 'VOID' ? 1 : verdict === 'FAIL' ? 2 : 0);
}
