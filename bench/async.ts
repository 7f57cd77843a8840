import os from 'node:os';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { createKnex } from '../db/knex';
import { newId } from '../lib/ids';
import { readyUpdate, type floorWorkflow } from './workflows/floor';
import { startBenchStack } from './lib/embedded-stack';
import { startFakeUpstream, type FakeUpstream } from './lib/fake-upstream';
import { getJson, postJson, requestJson } from './lib/http-client';
import { newTally, postgresCommits, tallyTable } from './lib/cost-tally';
import { megabytes, memoryOf, resetPeak, sampleRss } from './lib/process-memory';
import { runBench } from './lib/run-bench';
import { ms, percentile, runLoad, summarize } from './lib/stats';
import { startBenchWorker } from './lib/worker-process';

// npm run bench:async — the gateway's async path against a fake fal queue in its own process
// (test/fakes/fal-server.ts: fal's protocol, a fixed latency, small real files), with the API live
// on fal and the worker as its own process (PROVIDER_MODE=live, FAL_KEY, FAL_QUEUE_URL). Only
// models whose first route is fal: video hailuo-02, music minimax-music-v2, avatar veed-avatars,
// 3D tripo-v2.5-text, upscale aura-sr (of a flux-schnell image made through fal too).
//   1. Throughput, fal answering in BENCH_LATENCY_MS (default 2000). Five rounds, each: 100
//      creation requests at concurrency 16 (202-accept: answered once their credits are reserved),
//      a wait until those jobs are terminal (the round's drain), then 100 bare workflows at
//      concurrency 16, started with the same Update-with-Start call and answered once the update
//      is, as a 202 is. Target: median accepted/s >= 0.8x median bare workflows/s. The CPU each
//      process spent and the Postgres commits per job (accept, run, settle) and per bare workflow
//      say where the time goes.
//   2. 500 jobs in flight: the fake is restarted on the same port with BENCH_HOLD_MS (default
//      45000), longer than sending 500 requests takes, so that all are in flight at once. It
//      reports how many were (from the rows' timestamps), how long submission to fal waited, the
//      drain, and the worker's peak RSS (VmHWM, reset before the phase). Target: <= 400 MB.
//   3. That every job succeeded on fal: every row, and a spot check through GET /v1/generations.
// BENCH_SCALE multiplies the job counts.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 2000);
const holdMs = Number(process.env.BENCH_HOLD_MS ?? 45_000);
const ROUNDS = 5;
const CONCURRENCY = 16;
const DRAIN_DEADLINE_MS = 30 * 60_000;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const spread = (sorted: number[]) => `p50 ${seconds(percentile(sorted, 0.5))}, p99 ${seconds(percentile(sorted, 0.99))}, max ${seconds(sorted[sorted.length - 1] ?? NaN)}`;

async function main() {
  let fal: FakeUpstream = await startFakeUpstream('test/fakes/fal-server.ts', ['--latency-ms', String(latencyMs)]);
  const stack = await startBenchStack(
    {
      providerMode: 'live',
      providerCredentials: { fal: { apiKey: fal.apiKey, baseUrl: fal.baseUrl } },
      providerBaseUrls: { fal: fal.baseUrl },
      // The upscales' image_url is an output of this API, on localhost.
      allowPrivateInputUrls: true,
    },
    { inProcessWorker: false },
  );
  const { config } = stack;
  // fal's output files are served by the fake, on localhost: ALLOW_PRIVATE_INPUT_URLS.
  const worker = await startBenchWorker(config, stack.dir, { PROVIDER_MODE: 'live', FAL_KEY: fal.apiKey, FAL_QUEUE_URL: fal.baseUrl, ALLOW_PRIVATE_INPUT_URLS: 'true' });
  // Idle, after bundling the workflow code: what the worker costs before any job.
  const idle = await memoryOf(worker.pid);
  const knex = createKnex(config.databaseUrl!);
  const connection = await Connection.connect({ address: config.temporalAddress! });
  const temporal = new Client({ connection });
  try {
    await worker.measuring(async () => {
      const admin = { Authorization: 'Bearer adm_bench' };
      const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'async bench', plan: 'pro', credits: 100_000_000 })).body);
      // The load is far above RATE_LIMIT_PER_MINUTE: lift this organization's limit, as an operator would.
      await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
      const key = { Authorization: `Bearer ${org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret}` };
      const image = await inputImage(stack.apiUrl, key);

      const requests: [string, unknown][] = [
        ['/v1/videos', { model: 'hailuo-02', prompt: 'waves', duration_s: 6 }],
        ['/v1/music', { model: 'minimax-music-v2', prompt: 'lofi', duration_s: 30 }],
        ['/v1/avatars', { model: 'veed-avatars', text: 'Hello and welcome to the tour.' }],
        ['/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'a chair', mesh_complexity: 'low' }],
        ['/v1/upscale', { model: 'aura-sr', image_url: image.url, scale_factor: '4' }],
      ];
      const ids: string[] = [];
      let next = 0;
      let lastAcceptAt = 0;
      const accept = async () => {
        const [route, body] = requests[next++ % requests.length]!;
        const res = await postJson(`${stack.apiUrl}${route}`, key, body);
        if (res.status !== 202) return false;
        ids.push(JSON.parse(res.body).id);
        lastAcceptAt = Date.now();
        return true;
      };
      const floor = async () => {
        const start = new WithStartWorkflowOperation<typeof floorWorkflow>('floorWorkflow', {
          workflowId: newId('gen'),
          taskQueue: config.taskQueue,
          args: [],
          workflowExecutionTimeout: '1m',
          workflowIdConflictPolicy: 'FAIL',
        });
        // Answered as a 202 is: once the update is; the workflow returns in the same task.
        return (await temporal.workflow.executeUpdateWithStart(readyUpdate, { startWorkflowOperation: start })) === true;
      };
      /** Waits until none of the organization's jobs is queued or running. */
      const drain = async (deadlineMs: number) => {
        const deadline = Date.now() + deadlineMs;
        let said = Date.now();
        for (;;) {
          const [row] = await knex('generations').where({ organization_id: org.id }).whereIn('status', ['queued', 'running']).count({ left: '*' });
          const left = Number(row?.left ?? 0);
          if (left === 0) return Date.now();
          if (Date.now() > deadline) throw new Error(`${left} jobs still not terminal after ${seconds(deadlineMs)}`);
          if (Date.now() - said > 15_000) {
            process.stderr.write(`[bench] draining: ${left} not terminal\n`);
            said = Date.now();
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };

      process.stderr.write('[bench] warming up\n');
      await runLoad(requests.length * 4, 4, accept);
      await runLoad(40, 4, floor);
      await drain(120_000);
      ids.length = 0;

      // 1. Throughput.
      const perRound = Math.max(10, Math.round(100 * scale));
      process.stderr.write(`[bench] throughput: ${ROUNDS} rounds of ${perRound} creation requests, their drain, ${perRound} bare workflows\n`);
      const beforeThroughput = await memoryOf(worker.pid);
      const throughputPeakReset = await resetPeak(worker.pid);
      const rounds: { accepts: ReturnType<typeof summarize>; drainMs: number; floors: ReturnType<typeof summarize> }[] = [];
      const pgCommits = postgresCommits(knex);
      const spent = { jobs: newTally(pgCommits), floors: newTally(pgCommits) };
      for (let round = 0; round < ROUNDS; round++) {
        let drainedAt = 0;
        const accepts = summarize(
          await spent.jobs.during(async () => {
            const load = await runLoad(perRound, CONCURRENCY, accept);
            drainedAt = await drain(DRAIN_DEADLINE_MS);
            return load;
          }),
        );
        const floors = summarize(await spent.floors.during(() => runLoad(perRound, CONCURRENCY, floor)));
        rounds.push({ accepts, drainMs: drainedAt - lastAcceptAt, floors });
      }
      const throughputPeak = (await memoryOf(worker.pid)).peakBytes;
      const throughputIds = ids.splice(0);

      // 2. 500 jobs in flight: the same fake, on the same port with the same key, holding each job longer.
      await fal.stop();
      fal = await startFakeUpstream('test/fakes/fal-server.ts', ['--latency-ms', String(holdMs), '--port', new URL(fal.baseUrl).port, '--api-key', fal.apiKey]);
      const total = Math.max(50, Math.round(500 * scale));
      process.stderr.write(`[bench] in flight: ${total} creation requests, fal holding each ${holdMs} ms\n`);
      const beforeBurst = await memoryOf(worker.pid);
      const burstPeakReset = await resetPeak(worker.pid);
      const sampler = sampleRss(worker.pid, 250);
      const burstStartedAt = Date.now();
      const burstSpent = newTally(pgCommits);
      const burst = summarize(await burstSpent.during(() => runLoad(total, CONCURRENCY, accept)));
      const burstDrainedAt = await drain(DRAIN_DEADLINE_MS);
      const highestSample = sampler.stop();
      const burstPeak = (await memoryOf(worker.pid)).peakBytes;
      const burstRows = await knex('generations').whereIn('id', ids).select('created_at', 'provider_job_submitted_at', 'finished_at');
      const submitWaits = burstRows.map((r) => r.provider_job_submitted_at.getTime() - r.created_at.getTime()).sort((a, b) => a - b);
      const tails = burstRows.map((r) => r.finished_at.getTime() - r.provider_job_submitted_at.getTime() - holdMs).sort((a, b) => a - b);

      // 3. Outcomes.
      const allIds = [...throughputIds, ...ids];
      const outcomes = await knex('generations').whereIn('id', allIds).select('id', 'modality', 'status', 'provider');
      const onFal = outcomes.filter((r) => r.status === 'succeeded' && r.provider === 'fal').length;
      const others = outcomes.filter((r) => !(r.status === 'succeeded' && r.provider === 'fal')).map((r) => `${r.id} ${r.status} ${r.provider}`);
      const spotIds = [...new Set(outcomes.map((r) => r.modality as string))].flatMap((m) =>
        outcomes
          .filter((r) => r.modality === m)
          .slice(0, 5)
          .map((r) => r.id as string),
      );
      const spot = await Promise.all(spotIds.map(async (id) => JSON.parse((await getJson(`${stack.apiUrl}/v1/generations/${id}`, key)).body)));
      const spotOk = spot.filter((g) => g.status === 'succeeded' && g.provider === 'fal' && g.outputs.length > 0).length;

      const acceptRate = median(rounds.map((r) => r.accepts.perSecond));
      const floorRate = median(rounds.map((r) => r.floors.perSecond));
      const jobs = perRound * ROUNDS;
      const peakNote = (reset: boolean) => (reset ? 'VmHWM, reset before the phase' : 'VmHWM since start: the kernel refused the reset');
      console.log(
        [
          '',
          `bench:async (embedded stack on the ${stack.temporalLabel}; API live on fal, worker in its own process with PROVIDER_MODE=live; fal fake in its own process;`,
          `  video hailuo-02, music minimax-music-v2, avatar veed-avatars, 3D tripo-v2.5-text, upscale aura-sr; ${os.cpus().length} cores)`,
          '',
          `1. throughput, fal latency ${latencyMs} ms: ${ROUNDS} rounds of ${perRound} creation requests at c=${CONCURRENCY}, their drain, ${perRound} bare workflows at c=${CONCURRENCY}`,
          ...rounds.map(
            (r, i) =>
              `  round ${i + 1}: 202-accept ${r.accepts.perSecond.toFixed(1)}/s (p50 ${ms(r.accepts.p50)}, p99 ${ms(r.accepts.p99)}, errors ${r.accepts.errors}), ` +
              `all terminal ${seconds(r.drainMs)} after the last accept;  bare workflows ${r.floors.perSecond.toFixed(1)}/s (p50 ${ms(r.floors.p50)}, p99 ${ms(r.floors.p99)}, errors ${r.floors.errors});  ` +
              `${(r.accepts.perSecond / r.floors.perSecond).toFixed(2)}x`,
          ),
          `  medians: ${acceptRate.toFixed(1)} accepted/s against ${floorRate.toFixed(1)} bare workflows/s = ${(acceptRate / floorRate).toFixed(2)}x (target >= 0.8x)`,
          `  CPU per job (its request, run and settlement: the accept round and its drain) and per bare workflow, by process:`,
          tallyTable([
            ['per job', spent.jobs, jobs],
            ['per bare workflow', spent.floors, jobs],
          ]),
          `  worker RSS: ${megabytes(idle.rssBytes)} idle once polling, ${megabytes(beforeThroughput.rssBytes)} before the phase, peak ${megabytes(throughputPeak)} (${peakNote(throughputPeakReset)})`,
          '',
          `2. in flight, fal latency ${holdMs} ms: ${burst.n} creation requests at c=${CONCURRENCY}, ${burst.perSecond.toFixed(1)} accepted/s (p50 ${ms(burst.p50)}, p99 ${ms(burst.p99)}, errors ${burst.errors})`,
          `  CPU per accept while sending them (no job finishes meanwhile; the first ones are polled), by process:`,
          tallyTable([['per accept', burstSpent, total]]),
          `  at once: ${peakOverlap(burstRows.map((r) => [r.created_at, r.finished_at]))} accepted and not terminal; ` +
            `${peakOverlap(burstRows.map((r) => [r.provider_job_submitted_at, r.finished_at]))} submitted to fal and not terminal (from the rows' timestamps)`,
          `  accepted -> submitted to fal: ${spread(submitWaits)}; done at fal (submitted + ${holdMs} ms) -> terminal: ${spread(tails)}`,
          `  drain: all ${burst.n} terminal ${seconds(burstDrainedAt - burstStartedAt)} after the first request, ${seconds(burstDrainedAt - lastAcceptAt)} after the last accept`,
          `  worker RSS: ${megabytes(beforeBurst.rssBytes)} before the phase, peak ${megabytes(burstPeak)} (${peakNote(burstPeakReset)}), highest 250 ms sample ${megabytes(highestSample)} (target <= 400 MB)`,
          '',
          `3. outcome: ${onFal}/${allIds.length} succeeded with provider fal${others.length ? `; not: ${others.slice(0, 5).join(', ')}` : ''};` +
            ` spot check through GET /v1/generations/{id}: ${spotOk}/${spot.length} succeeded with provider "fal" and outputs`,
          ...(image.note ? [`note: ${image.note}`] : []),
          '',
        ].join('\n'),
      );
    });
  } finally {
    await connection.close();
    await knex.destroy();
    await worker.stop();
    await stack.stop();
    await fal.stop();
  }
}

/**
 * The upscales' input: a flux-schnell image made through fal. Should its POST not answer 200 (a
 * sync deadline passed on a busy machine), the image is read from the generation list once it
 * succeeds, and the report says so.
 */
async function inputImage(apiUrl: string, key: Record<string, string>): Promise<{ url: string; note?: string }> {
  const res = await postJson(`${apiUrl}/v1/images`, key, { model: 'flux-schnell', prompt: 'input', aspect_ratio: '1:1' });
  const posted = JSON.parse(res.body);
  if (res.status === 200 && posted.provider === 'fal') return { url: posted.outputs[0].url };
  const note = `the input image's POST /v1/images (sync, flux-schnell on fal) answered ${res.status} ${posted.error?.code ?? posted.status}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [found] = JSON.parse((await getJson(`${apiUrl}/v1/generations?modality=image&limit=1`, key)).body).data;
    if (found?.status === 'succeeded' && found.provider === 'fal') return { url: found.outputs[0].url, note: `${note}; its generation ${found.id} succeeded on fal all the same` };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${note}, and no image generation succeeded on fal: ${res.body}`);
}

/** The most intervals open at one instant. */
function peakOverlap(intervals: [Date, Date][]): number {
  const events = intervals.flatMap(([from, to]) => [
    [from.getTime(), 1],
    [to.getTime(), -1],
  ]);
  // Ends before starts at the same instant: a job that finished as another began never overlapped it.
  events.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let open = 0;
  let peak = 0;
  for (const [, delta] of events) peak = Math.max(peak, (open += delta!));
  return peak;
}

runBench(main);
