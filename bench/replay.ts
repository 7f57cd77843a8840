import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { historyFromJsonText } from '../test/fixtures/histories/history-json';
import { HISTORIES_DIR } from '../test/fixtures/histories/shapes';
import { BUNDLER_LOGGER, workflowCode } from '../worker/bundle-workflows';
import { BENCH_WORKFLOWS_PATH } from './lib/bench-workflows';
import { runBench } from './lib/run-bench';
import { percentile } from './lib/stats';
import { textTable } from './lib/text-table';

// npm run bench:replay — the worker's CPU per workflow in the SDK's sandbox, by replaying recorded
// histories (test/fixtures/histories/) in this process: the bundle the worker runs (WORKFLOW_CODE,
// with workflows/sandbox-stack-traces.ts preloaded) against the same code bundled with the SDK's
// defaults (V8's ten frames per stack trace), the baseline. Three interleaved rounds, each side
// going first in turn. Both bundle bench/workflows/ (the production workflows and the floors, for
// `floor-bare`); each round replays every shape BENCH_SCALE x 200 times. Replay runs every
// activation a live worker runs for that history, without the server.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ROUNDS = 3;
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
  const spent = { default: SHAPES.map(() => [] as number[]), worker: SHAPES.map(() => [] as number[]) };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['default', 'worker'] as const) : (['worker', 'default'] as const);
    for (const [i, name] of SHAPES.entries()) {
      for (const side of order) spent[side][i]!.push(await cpuPerReplay(bundles[side], name, histories[i]!, n));
    }
  }
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  console.log(`CPU per replayed workflow, median of ${ROUNDS} rounds of ${n}:`);
  console.log(
    textTable(
      ['history', 'SDK default (10 frames)', 'worker (3 frames)', 'ratio'],
      SHAPES.map((name, i) => {
        const [base, ours] = [median(spent.default[i]!), median(spent.worker[i]!)];
        return [name, `${base.toFixed(2)} ms`, `${ours.toFixed(2)} ms`, `${(ours / base).toFixed(2)}x`];
      }),
    ),
  );
}

runBench(main);
