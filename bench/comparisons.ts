import path from 'node:path';
import { listModels } from '../domain/catalog';
import { COMPARISON_MODEL_CAP } from '../domain/plans';
import { startBenchStack } from './lib/embedded-stack';
import { PROVIDER_DOUBLE_ENV, PROVIDER_DOUBLES_WORKER } from '../test/helpers/provider-doubles';
import { getJson, postJson, requestJson } from './lib/http-client';
import { megabytes, memoryOf, resetPeak, sampleRss } from './lib/process-memory';
import { runBench } from './lib/run-bench';
import { spawnService } from './lib/service-process';
import { ms, percentile, runLoad, summarize } from './lib/stats';
import { textTable } from './lib/text-table';

// npm run bench:comparisons — comparisons on the embedded stack, the worker as its own process:
//   1. fan-out: 12-model comparisons whose every child takes #slow:<BENCH_SLOW_MS> (default 2000);
//      the wall time from the POST to the comparison's finished_at, over the slowest child's own
//      time (its finished_at - created_at) and over the #slow value. One at a time, then 2 and 4
//      at once (24 and 48 children: a sync child holds one of the worker's 40 workflow task slots
//      for its whole provider call, so 48 run in two waves). Target: wall / slowest child <= 1.1,
//      i.e. running 12 models costs about what the slowest one costs.
//   2. 202-accept: 50 comparisons at concurrency 8 against 50 single generations of the same
//      modality at concurrency 8 (answered 202 once reserved), same organization, same run; with
//      children that finish at once, then with children that take #slow.
//   3. the worker's peak RSS during 1 and 2 (VmHWM, reset before the load), and its RSS before.
//
// Chat, because it is the only modality with 12 catalog models, a Team plan's cap (image has 9).
// Chat is sync: each child is a generation workflow that runs the provider as a local activity.
//
// BENCH_SCALE (default 1) multiplies the counts; 0.2 gives a quick look.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const slowMs = Number(process.env.BENCH_SLOW_MS ?? 2000);
const count = (n: number, min: number) => Math.max(min, Math.round(n * scale));
/** Comparisons started together: 2 (24 children) and 4 (48 children, more than the worker's 40 workflow task slots). */
const AT_ONCE = [2, 4];
const ACCEPT_CONCURRENCY = 8;
const POLL_MS = 100;
const FINISH_LIMIT_MS = 5 * 60_000;

const MODELS = listModels()
  .filter((m) => m.modality === 'chat')
  .map((m) => m.slug)
  .slice(0, COMPARISON_MODEL_CAP.team);

type Headers = Record<string, string>;
interface Comparison {
  id: string;
  status: string;
  finished_at: string | null;
  generations: { id: string }[];
}
interface Generation {
  status: string;
  created_at: string;
  finished_at: string | null;
}

const comparisonBody = (prompt: string) => ({ prompt, models: MODELS, params_shared: { max_tokens: 200 } });
const singleBody = (i: number, prompt: string) => ({ model: MODELS[i % MODELS.length], messages: [{ role: 'user', content: prompt }], max_tokens: 200 });

/** Polls GET until `done` says so; every POLL_MS, at most FINISH_LIMIT_MS. */
async function pollUntil<T>(url: string, key: Headers, done: (body: T) => boolean): Promise<T> {
  const giveUpAt = Date.now() + FINISH_LIMIT_MS;
  for (;;) {
    const res = await getJson(url, key);
    const body = JSON.parse(res.body) as T;
    if (res.status === 200 && done(body)) return body;
    if (Date.now() > giveUpAt) throw new Error(`${url} not done after ${FINISH_LIMIT_MS} ms: ${res.status} ${res.body.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const finished = (api: string, key: Headers, id: string) => pollUntil<Comparison>(`${api}/v1/comparisons/${id}`, key, (c) => c.finished_at !== null);
const terminal = (api: string, key: Headers, id: string) =>
  pollUntil<Generation>(`${api}/v1/generations/${id}`, key, (g) => ['succeeded', 'failed', 'canceled'].includes(g.status));

/**
 * One comparison from its POST to its verdict, against its slowest child's own time, with where the
 * rest went: admission (POST to the children's created_at), the slowest child beyond its #slow,
 * and the verdict after the last child ended.
 */
async function timeComparison(api: string, key: Headers, prompt: string) {
  const postedAt = Date.now();
  const res = await postJson(`${api}/v1/comparisons`, key, comparisonBody(prompt));
  if (res.status !== 202) throw new Error(`POST /v1/comparisons answered ${res.status}: ${res.body.slice(0, 300)}`);
  const done = await finished(api, key, (JSON.parse(res.body) as Comparison).id);
  const children = await Promise.all(done.generations.map((g) => terminal(api, key, g.id)));
  const created = Math.min(...children.map((c) => Date.parse(c.created_at)));
  const lastEnded = Math.max(...children.map((c) => Date.parse(c.finished_at!)));
  const slowestChildMs = Math.max(...children.map((c) => Date.parse(c.finished_at!) - Date.parse(c.created_at)));
  const verdictAt = Date.parse(done.finished_at!);
  return {
    wallMs: verdictAt - postedAt,
    slowestChildMs,
    admissionMs: created - postedAt,
    verdictLagMs: verdictAt - lastEnded,
    succeeded: done.status === 'succeeded',
  };
}
type FanOut = Awaited<ReturnType<typeof timeComparison>>;

/** `rounds` rounds of `atOnce` comparisons started together. */
async function fanOut(rounds: number, atOnce: number, run: () => Promise<FanOut>): Promise<FanOut[]> {
  const runs: FanOut[] = [];
  for (let round = 0; round < rounds; round++) runs.push(...(await Promise.all(Array.from({ length: atOnce }, run))));
  return runs;
}

function fanOutRow(label: string, runs: FanOut[]): (string | number)[] {
  const sorted = (pick: (r: FanOut) => number) => runs.map(pick).sort((a, b) => a - b);
  const p50 = (values: number[]) => percentile(values, 0.5);
  const max = (values: number[]) => values[values.length - 1]!;
  const x = (v: number) => `${v.toFixed(3)}x`;
  const byChild = sorted((r) => r.wallMs / r.slowestChildMs);
  const bySlow = sorted((r) => r.wallMs / slowMs);
  const wall = sorted((r) => r.wallMs);
  return [
    label,
    runs.length,
    ms(p50(wall)),
    ms(max(wall)),
    x(p50(byChild)),
    x(max(byChild)),
    x(p50(bySlow)),
    x(max(bySlow)),
    ms(p50(sorted((r) => r.admissionMs))),
    ms(p50(sorted((r) => r.slowestChildMs - slowMs))),
    ms(p50(sorted((r) => r.verdictLagMs))),
    runs.filter((r) => !r.succeeded).length,
  ];
}

/**
 * `total` POSTs at ACCEPT_CONCURRENCY, each to be answered 202; then waits until every accepted job
 * is `done`. A sync chat whose job finished before its admission's answer came (one workflow task
 * does both) is answered 200 with its result, as the API answers a finished sync job: it counts as
 * answered, and the line says how many were.
 */
async function acceptLoad(total: number, post: (i: number) => Promise<{ status: number; body: string }>, done: (id: string) => Promise<unknown>) {
  const ids: string[] = [];
  const refused: number[] = [];
  let finished = 0;
  let next = 0;
  const load = await runLoad(total, ACCEPT_CONCURRENCY, async () => {
    const res = await post(next++);
    if (res.status !== 202 && res.status !== 200) {
      refused.push(res.status);
      return false;
    }
    if (res.status === 200) finished++;
    ids.push((JSON.parse(res.body) as { id: string }).id);
    return true;
  });
  const drainStarted = Date.now();
  await Promise.all(ids.map(done));
  return { ...summarize(load), finished, refused, drainMs: Date.now() - drainStarted };
}

function acceptLine(label: string, s: Awaited<ReturnType<typeof acceptLoad>>, modelsEach: number): string {
  return (
    `  ${label.padEnd(22)} n=${s.n}  p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  ${s.perSecond.toFixed(1)} accepted/s ` +
    `(${(s.perSecond * modelsEach).toFixed(1)} models/s)  answered 200, already finished: ${s.finished}  ` +
    `errors ${s.errors}${s.refused.length ? ` (HTTP ${s.refused.join(', ')})` : ''}  drained in ${(s.drainMs / 1000).toFixed(1)} s`
  );
}

async function main() {
  const stack = await startBenchStack({}, { inProcessWorker: false });
  const { config } = stack;
  const exits: string[] = [];
  const worker = await spawnService({
    name: 'worker',
    // Live keys pay as on the real providers, stood in for by the simulator in this worker.
    entry: PROVIDER_DOUBLES_WORKER,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: config.databaseUrl,
      TEMPORAL_ADDRESS: config.temporalAddress,
      LOCAL_STORAGE_DIR: config.localStorageDir,
      PROVIDER_MODE: 'live',
      ...PROVIDER_DOUBLE_ENV,
      LOG_LEVEL: 'info',
    },
    ready: '"worker polling"',
    logFile: path.join(stack.dir, 'worker.log'),
    onUnexpectedExit: (description) => exits.push(description),
  });
  try {
    const admin = { Authorization: 'Bearer adm_bench' };
    const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'comparison bench', plan: 'team', credits: 100_000_000 })).body);
    await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
    const key = { Authorization: `Bearer ${org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret}` };
    // Singles answer 202 as soon as they are reserved, as comparisons always do.
    const acceptApi = await stack.startExtraApi({ syncTimeoutMs: 0 });
    const api = acceptApi.url;

    const postSingle = (prompt: string) => (i: number) => postJson(`${api}/v1/chat`, key, singleBody(i, prompt));
    const postComparison = (prompt: string) => () => postJson(`${api}/v1/comparisons`, key, comparisonBody(prompt));
    const isTerminal = (id: string) => terminal(api, key, id);
    const isFinished = (id: string) => finished(api, key, id);

    process.stderr.write('[bench] warming up\n');
    for (let i = 0; i < 3; i++) await timeComparison(api, key, `warm-up ${i}`);
    await acceptLoad(24, postSingle('warm-up'), isTerminal);

    const before = await memoryOf(worker.pid);
    const peakReset = await resetPeak(worker.pid);
    const sampler = sampleRss(worker.pid, 100);
    const slowPrompt = `compare these #slow:${slowMs}`;

    process.stderr.write(`[bench] fan-out: one comparison at a time, then ${AT_ONCE.join(' and ')} at once\n`);
    const run = () => timeComparison(api, key, slowPrompt);
    const fanOuts: [string, FanOut[]][] = [['one at a time', await fanOut(count(8, 3), 1, run)]];
    for (const atOnce of AT_ONCE) fanOuts.push([`${atOnce} at once`, await fanOut(count(3, 1), atOnce, run)]);

    // Twice: children that finish at once (the admission's own cost), then children that take
    // #slow, whose local activities hold the worker's workflow task slots meanwhile.
    const accepts: string[] = [];
    for (const [label, prompt] of [
      ['children without #slow', 'compare these'],
      [`children #slow:${slowMs}`, slowPrompt],
    ] as const) {
      process.stderr.write(`[bench] 202-accept, ${label}: single generations, then comparisons\n`);
      const total = count(50, 10);
      const singles = await acceptLoad(total, postSingle(prompt), isTerminal);
      const comparisons = await acceptLoad(total, postComparison(prompt), isFinished);
      accepts.push(
        `${label}:`,
        acceptLine('single POST /v1/chat', singles, 1),
        acceptLine('POST /v1/comparisons', comparisons, MODELS.length),
        `comparison / single: p50 ${(comparisons.p50 / singles.p50).toFixed(2)}x, p95 ${(comparisons.p95 / singles.p95).toFixed(2)}x, ` +
          `throughput ${(comparisons.perSecond / singles.perSecond).toFixed(2)}x (models accepted per second ${((comparisons.perSecond * MODELS.length) / singles.perSecond).toFixed(2)}x)`,
      );
    }

    const sampledMax = sampler.stop();
    const after = await memoryOf(worker.pid);
    await acceptApi.close();
    console.log(
      [
        '',
        `bench:comparisons (embedded stack on the ${stack.temporalLabel}, worker in its own process; chat, ${MODELS.length} models per comparison, every child #slow:${slowMs})`,
        '',
        "fan-out: wall = POST to the comparison's finished_at; slowest child = its own finished_at - created_at; p50 unless marked",
        textTable(
          [
            'comparisons',
            'n',
            'wall',
            'wall max',
            'wall/slowest child',
            'max',
            'wall/#slow',
            'max',
            'admitted after',
            'slowest child - #slow',
            'verdict after last child',
            'not succeeded',
          ],
          [
            ...fanOuts.map(([label, runs]) => fanOutRow(label, runs)),
            fanOutRow(
              'all',
              fanOuts.flatMap(([, runs]) => runs),
            ),
          ],
        ),
        'target: wall / slowest child <= 1.100x',
        '',
        `202-accept at concurrency ${ACCEPT_CONCURRENCY} (an API with SYNC_TIMEOUT_MS=0, so a single chat answers 202 once reserved, as a comparison does; ` +
          'drained: every accepted job done, from the last accept)',
        ...accepts,
        '',
        `worker RSS: ${megabytes(before.rssBytes)} before the load (peak since start ${megabytes(before.peakBytes)}, bundling the workflows included); ` +
          `peak during the load ${peakReset ? megabytes(after.peakBytes) : 'not measurable (VmHWM could not be reset)'} (VmHWM, reset before the load); ` +
          `highest 100 ms sample ${megabytes(sampledMax)}; ${megabytes(after.rssBytes)} after`,
        `worker exits nobody asked for: ${exits.length === 0 ? 'none' : exits.join('; ')}`,
        '',
      ].join('\n'),
    );
  } finally {
    await worker.stop();
    await stack.stop();
  }
}

runBench(main);
