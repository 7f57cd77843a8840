import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { historyFromJsonText } from '../test/fixtures/histories/history-json';
import { HISTORIES_DIR } from '../test/fixtures/histories/shapes';
import { BUNDLER_LOGGER, workflowCode } from '../worker/bundle-workflows';
import { BENCH_WORKFLOWS_PATH } from './lib/bench-workflows';
import { formatRatio, interleaved, median, ratioOf, runBenchmark } from './lib/harness';
import { textTable } from './lib/text-table';

// npm run bench:replay — the worker's CPU per workflow in the SDK's sandbox, by replaying recorded
// histories (test/fixtures/histories/) in this process: the bundle the worker runs (WORKFLOW_CODE,
// with workflows/sandbox-stack-traces.ts preloaded) against the same code bundled with the SDK's
// defaults (V8's ten frames per stack trace), the baseline. Five interleaved rounds, each side
// going first in turn; per history, the ratio is the median of the per-round ratios (worker /
// default) with their range. Both bundle bench/workflows/ (the production workflows and the floors,
// for `floor-bare`); each round replays every shape BENCH_SCALE x 200 times. Replay runs every
// activation a live worker runs for that history, without the server. No target is stated; a
// history that no longer replays voids the run.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ROUNDS = 5;
const SHAPES = [
  'floor-bare',
  'generation-image-succeeded',
  'generation-chat-succeeded',
  'generation-video-callback-succeeded',
  'generation-video-polled-succeeded',
  'comparison-child-succeeded',
  'webhook-delivery-succeeded',
];

type History = ReturnType<typeof historyFromJsonText>;

async function cpuPerReplay(bundle: WorkflowBundle, name: string, history: History, n: number): Promise<number> {
  const items = Array.from({ length: n + 1 }, (_, i) => ({ workflowId: `${name}-${i}`, history }));
  // Counted from the first replay's result, so the replay worker's start (a thread, the bundle
  // loaded and its source map parsed) is not.
  let from: NodeJS.CpuUsage | undefined;
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle }, items)) {
    if (result.error) throw new Error(`${name} no longer replays: ${result.error.message}`);
    from ??= process.cpuUsage();
  }
  const spent = process.cpuUsage(from);
  return (spent.user + spent.system) / 1000 / n;
}

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const bundles: Record<'default' | 'worker', WorkflowBundle> = {
    default: await bundleWorkflowCode({ workflowsPath: BENCH_WORKFLOWS_PATH, logger: BUNDLER_LOGGER }),
    worker: await bundleWorkflowCode({ ...workflowCode(BENCH_WORKFLOWS_PATH), logger: BUNDLER_LOGGER }),
  };
  const histories = await Promise.all(SHAPES.map(async (name) => historyFromJsonText(await readFile(path.join(HISTORIES_DIR, `${name}.json`), 'utf8'))));
  const n = Math.max(10, Math.round(200 * scale));
  await cpuPerReplay(bundles.worker, SHAPES[1]!, histories[1]!, n); // warm-up: JIT, the SDK's core
  const sides = ['default', 'worker'] as const;
  // Per side, per round: the CPU per replay of each history, in SHAPES order.
  const rounds = await interleaved(ROUNDS, sides, async (side) => {
    const perShape: number[] = [];
    for (const [i, name] of SHAPES.entries()) perShape.push(await cpuPerReplay(bundles[side], name, histories[i]!, n));
    return perShape;
  });
  const rows = SHAPES.map((name, i) => {
    const [base, ours] = [rounds.default.map((r) => r[i]!), rounds.worker.map((r) => r[i]!)];
    return { name, defaultMs: median(base), workerMs: median(ours), ratio: ratioOf(ours, base) };
  });
  console.log(`CPU per replayed workflow, median of ${ROUNDS} interleaved rounds of ${n}:`);
  console.log(
    textTable(
      ['history', 'SDK default (10 frames)', 'worker (3 frames)', 'worker / default (per-round ratios)'],
      rows.map((r) => [r.name, `${r.defaultMs.toFixed(2)} ms`, `${r.workerMs.toFixed(2)} ms`, formatRatio(r.ratio)]),
    ),
  );
  const ratios = rows.map((r) => r.ratio.median);
  return {
    targets: [
      {
        name: 'CPU per replayed workflow, worker (3 frames) / SDK default (10 frames)',
        target: 'none stated',
        result: `${median(ratios).toFixed(2)}x, the median over ${rows.length} histories (each the median of ${ROUNDS} per-round ratios; ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}x by history)`,
      },
    ],
    figures: { replaysPerRound: n, histories: rows },
    notes: [`replay in this process, no server; ${ROUNDS} interleaved rounds of ${n} replays per history and side (BENCH_SCALE=${scale})`],
  };
}

runBenchmark('replay', main);
