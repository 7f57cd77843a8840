import { listModels } from '../domain/catalog';
import { isTerminal, type GenerationStatus } from '../domain/generation-status';
import { COMPARISON_MODEL_CAP } from '../domain/plans';
import { PROVIDER_DOUBLE_ENV, PROVIDER_DOUBLES_WORKER } from '../test/helpers/provider-doubles';
import { startBenchStack } from './lib/embedded-stack';
import { COMPARISON_TARGET, comparisonTarget } from './lib/comparison-target';
import { formatRatio, interleaved, ratioOf, runBenchmark, type ErrorLog } from './lib/harness';
import { getJson, postJson, requestJson } from './lib/http-client';
import { megabytes, memoryOf, resetPeak } from './lib/process-memory';
import { ms, percentile } from './lib/stats';
import { textTable } from './lib/text-table';
import { startBenchWorker } from './lib/worker-process';

// npm run bench:comparisons — what a 12-model comparison costs over one generation of one model.
// Embedded stack, the worker as its own process started as `npm run worker` is (production
// settings, bench/lib/worker-process.ts), with the real providers stood in for by the simulator
// (PROVIDER_DOUBLES_WORKER), so live keys are charged as on them and `#slow` steers every job.
//
// Interleaved rounds (the order alternating), each: one 12-model chat comparison, and one single
// POST /v1/chat of one of the same 12 models (round i: model i mod 12), every prompt `#slow:<ms>`
// (BENCH_SLOW_MS, default 2000). Each side's wall time runs from just before its POST to the poll
// of the API that first shows it terminal (GET /v1/comparisons/{id} until `finished_at`, GET
// /v1/generations/{id} until terminal), both polled every POLL_MS through an API with
// SYNC_TIMEOUT_MS=0, so the single answers 202 as the comparison does and both are read the same
// way. Target (bench/lib/comparison-target.ts): the p90 of the per-round ratios (comparison wall /
// single wall) <= 1.15, judged on n >= 20 rounds; the median with its range and the ratio of the
// two sides' p90s are reported too.
// Where a comparison's extra time goes (admission, its slowest child beyond `#slow`, the verdict
// after the last child) is read from the children afterwards, and the worker's peak RSS during
// the rounds (VmHWM, reset first).
//
// Chat, because it is the only modality with 12 catalog models (the Team plan's cap; image has 9,
// and a comparison names each model once). Every comparison or generation that does not end
// succeeded, and every answer that is not 2xx, is an unexpected error: it voids the run.
// BENCH_SCALE multiplies the rounds (default 30; at least 5): below 20 the target is not judged.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const slowMs = Number(process.env.BENCH_SLOW_MS ?? 2000);
const ROUNDS = Math.max(5, Math.round(30 * scale));
const POLL_MS = 50;
/** Far beyond any planned run: a job not terminal by then is an error. */
const FINISH_LIMIT_MS = slowMs + 120_000;
const WARM_UP_ROUNDS = 2;

const MODELS = listModels()
  .filter((m) => m.modality === 'chat')
  .map((m) => m.slug)
  .slice(0, COMPARISON_MODEL_CAP.team);

type Headers = Record<string, string>;
type Side = 'comparison' | 'single';
interface Comparison {
  id: string;
  status: string;
  finished_at: string | null;
  generations: { id: string; model: string; status: string }[];
}
interface Generation {
  id: string;
  status: GenerationStatus;
  created_at: string;
  finished_at: string | null;
}
/** One side of one round. */
interface Sample {
  /** POST to the poll that first read it terminal, on this process's clock. */
  wallMs: number;
  /** POST to its (first child's) created_at: the admission. */
  admissionMs: number;
  /** The slowest job's own finished_at - created_at, beyond the `#slow`. */
  beyondSlowMs: number;
  /** A comparison's finished_at after its last child's: the verdict (0 for a single). */
  verdictLagMs: number;
}

const prompt = (round: number) => `compare these, round ${round} #slow:${slowMs}`;

/**
 * Polls `url` every POLL_MS until `done` says so. An answer that is not 200 is an unexpected error
 * (polling goes on: the run is void anyway, and the figures say how long it took); a job not done
 * after FINISH_LIMIT_MS ends the run.
 */
async function pollUntil<T>(errors: ErrorLog, url: string, key: Headers, done: (body: T) => boolean): Promise<T> {
  const giveUpAt = Date.now() + FINISH_LIMIT_MS;
  for (;;) {
    const res = await getJson(url, key);
    if (res.status !== 200) errors.unexpected(`GET ${url}`, `answered ${res.status}: ${res.body.slice(0, 300)}`);
    else {
      const body = JSON.parse(res.body) as T;
      if (done(body)) return body;
    }
    if (Date.now() > giveUpAt) throw new Error(`${url} not done after ${FINISH_LIMIT_MS} ms: ${res.status} ${res.body.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A setup call's answer, if 2xx; anything else is an unexpected error and ends the run. */
function succeeded(errors: ErrorLog, where: string, res: { status: number; body: string }): { status: number; body: string } {
  if (res.status >= 200 && res.status < 300) return res;
  errors.unexpected(where, `answered ${res.status}: ${res.body.slice(0, 300)}`);
  throw new Error(`${where} answered ${res.status}`);
}

/** POSTs and expects `expected`; anything else is an unexpected error and ends the run. */
async function post(errors: ErrorLog, url: string, key: Headers, body: unknown, expected: number[]): Promise<{ status: number; body: string }> {
  const res = await postJson(url, key, body);
  if (!expected.includes(res.status)) {
    errors.unexpected(`POST ${url}`, `answered ${res.status}: ${res.body.slice(0, 300)}`);
    throw new Error(`POST ${url} answered ${res.status}`);
  }
  return res;
}

const getGeneration = (errors: ErrorLog, api: string, key: Headers, id: string) => pollUntil<Generation>(errors, `${api}/v1/generations/${id}`, key, (g) => isTerminal(g.status));

/** One 12-model comparison, from its POST to the poll that reads its `finished_at`. */
async function timeComparison(errors: ErrorLog, api: string, key: Headers, round: number): Promise<Sample> {
  const postedAt = Date.now();
  const t0 = performance.now();
  const res = await post(errors, `${api}/v1/comparisons`, key, { prompt: prompt(round), models: MODELS, params_shared: { max_tokens: 200 } }, [202]);
  const done = await pollUntil<Comparison>(errors, `${api}/v1/comparisons/${(JSON.parse(res.body) as Comparison).id}`, key, (c) => c.finished_at !== null);
  const wallMs = performance.now() - t0;

  const notSucceeded = done.generations.filter((g) => g.status !== 'succeeded');
  if (done.status !== 'succeeded' || done.generations.length !== MODELS.length || notSucceeded.length > 0) {
    const children = notSucceeded.map((g) => `${g.model} ${g.status}`).join(', ');
    errors.unexpected(
      `comparison ${done.id}`,
      `ended ${done.status} with ${done.generations.length} children${children ? ` (${children})` : ''}; planned: succeeded, all ${MODELS.length}`,
    );
  }
  // After the clock stopped: the children's own timestamps, for where the time went.
  const children = await Promise.all(done.generations.map((g) => getGeneration(errors, api, key, g.id)));
  const lastEnded = Math.max(...children.map((c) => Date.parse(c.finished_at!)));
  return {
    wallMs,
    admissionMs: Math.min(...children.map((c) => Date.parse(c.created_at))) - postedAt,
    beyondSlowMs: Math.max(...children.map((c) => Date.parse(c.finished_at!) - Date.parse(c.created_at))) - slowMs,
    verdictLagMs: Date.parse(done.finished_at!) - lastEnded,
  };
}

/**
 * One POST /v1/chat, answered 202 (SYNC_TIMEOUT_MS=0), from its POST to the poll that reads it
 * terminal. A chat done before its admission's answer is answered 200 with its result: terminal then.
 */
async function timeSingle(errors: ErrorLog, api: string, key: Headers, round: number): Promise<Sample> {
  const model = MODELS[round % MODELS.length]!;
  const postedAt = Date.now();
  const t0 = performance.now();
  const res = await post(errors, `${api}/v1/chat`, key, { model, messages: [{ role: 'user', content: prompt(round) }], max_tokens: 200 }, [200, 202]);
  const { id } = JSON.parse(res.body) as { id: string };
  const done = res.status === 200 ? undefined : await getGeneration(errors, api, key, id);
  const wallMs = performance.now() - t0;

  const generation = done ?? (await getGeneration(errors, api, key, id));
  if (generation.status !== 'succeeded') errors.unexpected(`generation ${id} (${model})`, `ended ${generation.status}; planned: succeeded`);
  return {
    wallMs,
    admissionMs: Date.parse(generation.created_at) - postedAt,
    beyondSlowMs: Date.parse(generation.finished_at!) - Date.parse(generation.created_at) - slowMs,
    verdictLagMs: 0,
  };
}

const sortedOf = (samples: Sample[], pick: (s: Sample) => number) => samples.map(pick).sort((a, b) => a - b);
const x = (value: number) => `${value.toFixed(3)}x`;

function sideRow(side: Side, samples: Sample[]): (string | number)[] {
  const wall = sortedOf(samples, (s) => s.wallMs);
  const p50 = (pick: (s: Sample) => number) => ms(percentile(sortedOf(samples, pick), 0.5));
  return [
    side,
    samples.length,
    ms(percentile(wall, 0.5)),
    ms(percentile(wall, COMPARISON_TARGET.quantile)),
    ms(wall[wall.length - 1]!),
    x(percentile(wall, 0.5) / slowMs),
    p50((s) => s.admissionMs),
    p50((s) => s.beyondSlowMs),
    p50((s) => s.verdictLagMs),
  ];
}

function sideFigures(samples: Sample[]) {
  const wall = sortedOf(samples, (s) => s.wallMs);
  const p50 = (pick: (s: Sample) => number) => percentile(sortedOf(samples, pick), 0.5);
  return {
    n: samples.length,
    wallMs: samples.map((s) => Math.round(s.wallMs)),
    wallP50Ms: percentile(wall, 0.5),
    wallP90Ms: percentile(wall, COMPARISON_TARGET.quantile),
    wallMaxMs: wall[wall.length - 1],
    admissionP50Ms: p50((s) => s.admissionMs),
    beyondSlowP50Ms: p50((s) => s.beyondSlowMs),
    verdictLagP50Ms: p50((s) => s.verdictLagMs),
  };
}

runBenchmark('comparisons', async (errors) => {
  if (MODELS.length !== COMPARISON_MODEL_CAP.team) throw new Error(`the catalog has ${MODELS.length} chat models; this bench compares ${COMPARISON_MODEL_CAP.team}`);
  const stack = await startBenchStack({}, { inProcessWorker: false });
  // Live keys pay as on the real providers (the API has their credentials), each stood in for by the simulator in this worker.
  const worker = await startBenchWorker(stack.config, stack.dir, { PROVIDER_MODE: 'live', ...PROVIDER_DOUBLE_ENV }, { entry: PROVIDER_DOUBLES_WORKER });
  try {
    return await worker.measuring(async () => {
      const admin = { Authorization: 'Bearer adm_bench' };
      const created = await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'comparison bench', plan: 'team', credits: 100_000_000 });
      const org = JSON.parse(succeeded(errors, 'POST /admin/v1/organizations', created).body);
      // Far more requests than RATE_LIMIT_PER_MINUTE: lift this organization's limit, as an operator would.
      succeeded(
        errors,
        'PATCH /admin/v1/organizations',
        await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 }),
      );
      const key = { Authorization: `Bearer ${org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret}` };
      // A single chat answers 202 once reserved, as a comparison always does: both are read by polling.
      const pollApi = await stack.startExtraApi({ syncTimeoutMs: 0 });
      try {
        const run = (side: Side, round: number) => (side === 'comparison' ? timeComparison : timeSingle)(errors, pollApi.url, key, round);

        process.stderr.write('[bench] warming up\n');
        await interleaved(WARM_UP_ROUNDS, ['comparison', 'single'] as const, (side, i) => run(side, i));
        const peakReset = await resetPeak(worker.pid);
        const before = await memoryOf(worker.pid);

        process.stderr.write(`[bench] ${ROUNDS} rounds: one 12-model comparison and one single chat each, #slow:${slowMs}\n`);
        const sides = await interleaved(ROUNDS, ['comparison', 'single'] as const, run);
        const after = await memoryOf(worker.pid);

        const comparisonWall = sides.comparison.map((s) => s.wallMs);
        const singleWall = sides.single.map((s) => s.wallMs);
        const { ratioAtQuantile, ...target } = comparisonTarget(comparisonWall, singleWall, `12-model comparison wall / single generation wall (chat, #slow:${slowMs})`);
        const byMedian = ratioOf(comparisonWall, singleWall);
        const p90 = (samples: Sample[]) =>
          percentile(
            sortedOf(samples, (s) => s.wallMs),
            COMPARISON_TARGET.quantile,
          );
        const ofP90s = p90(sides.comparison) / p90(sides.single);

        console.log(
          [
            '',
            `bench:comparisons (embedded stack on the ${stack.temporalLabel}, worker in its own process; ${ROUNDS} interleaved rounds; chat, ` +
              `${MODELS.length} models per comparison, every job #slow:${slowMs}; both sides polled every ${POLL_MS} ms)`,
            '',
            textTable(
              ['side', 'n', 'wall p50', 'wall p90', 'wall max', 'wall/#slow p50', 'admitted after p50', 'slowest job beyond #slow p50', 'verdict after last child p50'],
              [sideRow('comparison', sides.comparison), sideRow('single', sides.single)],
            ),
            '',
            `per-round comparison/single: p90 ${x(ratioAtQuantile)}, median ${formatRatio(byMedian)}; ratio of the p90s ${x(ofP90s)}`,
            `worker RSS: ${megabytes(before.rssBytes)} before the rounds, peak during them ${peakReset ? megabytes(after.peakBytes) : 'not measurable (VmHWM could not be reset)'}, ${megabytes(after.rssBytes)} after`,
            '',
          ].join('\n'),
        );

        return {
          targets: [target],
          figures: {
            rounds: ROUNDS,
            slowMs,
            pollMs: POLL_MS,
            models: MODELS,
            ratioP90: ratioAtQuantile,
            ratioMedian: byMedian,
            ratioOfP90s: ofP90s,
            perRoundRatios: comparisonWall.map((c, i) => Number((c / singleWall[i]!).toFixed(4))),
            comparison: sideFigures(sides.comparison),
            single: sideFigures(sides.single),
            workerRss: { beforeBytes: before.rssBytes, peakBytes: peakReset ? after.peakBytes : null, afterBytes: after.rssBytes },
          },
          notes: [
            `embedded stack on the ${stack.temporalLabel}, worker in its own process (production settings), providers stood in for by the simulator; scale ${scale}`,
            `wall: POST to the first poll (every ${POLL_MS} ms, API with SYNC_TIMEOUT_MS=0) that reads the job terminal; singles rotate over the comparison's ${MODELS.length} models`,
          ],
        };
      } finally {
        await pollApi.close();
      }
    });
  } finally {
    await worker.stop();
    await stack.stop();
  }
});
