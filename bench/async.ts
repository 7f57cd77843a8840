import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runBench } from './lib/run-bench';
import { startBenchStack } from './lib/embedded-stack';
import { getJson, postJson, requestJson } from './lib/http-client';
import { ms, runLoad, summarize } from './lib/stats';

// npm run bench:async — the five async modalities (video, music, avatar, 3D, upscale) on the
// embedded stack, with the worker as its own process and the simulator at a fixed latency
// (BENCH_LATENCY_MS, default 2000):
//   1. 202-accept throughput: mixed creation requests, answered once their credits are reserved;
//   2. time to drain 500 jobs (BENCH_SCALE multiplies it): from the first request until every job
//      is terminal, and from the last accept;
//   3. the worker's peak RSS meanwhile (VmHWM), and its RSS sampled every 250 ms.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 2000);
const ROOT = path.resolve(__dirname, '..');

async function rssOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function spawnWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'worker/main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"worker polling"')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${output.slice(-2000)}`)));
  });
  return child;
}

async function main() {
  const stack = await startBenchStack({ simulatorAsyncLatencyMs: latencyMs }, { inProcessWorker: false });
  const { config } = stack;
  const worker = await spawnWorker({
    PATH: process.env.PATH,
    DATABASE_URL: config.databaseUrl,
    TEMPORAL_ADDRESS: config.temporalAddress,
    LOCAL_STORAGE_DIR: config.localStorageDir,
    PROVIDER_MODE: 'simulated',
    SIMULATOR_ASYNC_LATENCY_MS: String(latencyMs),
    LOG_LEVEL: 'info',
  });
  const workerPid = worker.pid!;
  const samples: number[] = [];
  const sampler = setInterval(() => void rssOf(workerPid).then((r) => samples.push(r.rss), () => undefined), 250);

  const admin = { Authorization: 'Bearer adm_bench' };
  const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'async bench', plan: 'pro', credits: 100_000_000 })).body);
  await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
  const key = { Authorization: `Bearer ${org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret}` };
  const image = JSON.parse((await postJson(`${stack.apiUrl}/v1/images`, key, { model: 'flux-schnell', prompt: 'input', aspect_ratio: '1:1' })).body);
  const imageUrl = image.outputs[0].url as string;

  const requests: [string, unknown][] = [
    ['/v1/videos', { model: 'hailuo-02', prompt: 'waves', duration_s: 6 }],
    ['/v1/music', { model: 'minimax-music-v2', prompt: 'lofi', duration_s: 30 }],
    ['/v1/avatars', { model: 'veed-avatars', text: 'Hello and welcome to the tour.' }],
    ['/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'a chair', mesh_complexity: 'low' }],
    ['/v1/upscale', { model: 'real-esrgan', image_url: imageUrl, scale_factor: '2' }],
  ];
  const ids: string[] = [];
  let next = 0;
  const submit = async () => {
    const [route, body] = requests[next++ % requests.length]!;
    const res = await postJson(`${stack.apiUrl}${route}`, key, body);
    if (res.status !== 202) return false;
    ids.push(JSON.parse(res.body).id);
    return true;
  };

  const total = Math.max(50, Math.round(500 * scale));
  const started = Date.now();
  const accept = summarize(await runLoad(total, 16, submit));
  const lastAccept = Date.now();

  // Drain: poll every job until it is terminal.
  const pending = new Set(ids);
  while (pending.size > 0) {
    await Promise.all(
      [...pending].slice(0, 200).map(async (id) => {
        const gen = JSON.parse((await getJson(`${stack.apiUrl}/v1/generations/${id}`, key)).body);
        if (['succeeded', 'failed', 'canceled'].includes(gen.status)) pending.delete(id);
      }),
    );
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const drained = Date.now();
  clearInterval(sampler);
  const { peak } = await rssOf(workerPid);
  const statuses = await Promise.all(ids.slice(0, 50).map(async (id) => JSON.parse((await getJson(`${stack.apiUrl}/v1/generations/${id}`, key)).body).status as string));
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

  console.log(
    [
      '',
      `bench:async (embedded stack, worker in its own process, simulator latency ${latencyMs} ms, ${total} jobs over video, music, avatar, 3D, upscale)`,
      `202-accept: ${accept.perSecond.toFixed(1)} accepted/s at concurrency 16, p50 ${ms(accept.p50)}, p99 ${ms(accept.p99)}, errors ${accept.errors}`,
      `drain: all ${total} terminal ${((drained - started) / 1000).toFixed(1)} s after the first request, ${((drained - lastAccept) / 1000).toFixed(1)} s after the last accept (${(total / ((drained - started) / 1000)).toFixed(1)} jobs/s end to end)`,
      `worker RSS: peak ${mb(peak)} (VmHWM); sampled median ${mb(samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0)}`,
      `spot check: ${statuses.filter((s) => s === 'succeeded').length}/${statuses.length} of the first jobs succeeded`,
      '',
    ].join('\n'),
  );
  worker.kill('SIGTERM');
  await new Promise((resolve) => worker.once('exit', resolve));
  await stack.stop();
}

runBench(main);
