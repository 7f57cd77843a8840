import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { newId } from '../lib/ids';
import { readyUpdate, type floorWorkflow } from './workflows/floor';
import { startBenchStack } from './lib/embedded-stack';
import { runBench } from './lib/run-bench';
import { postJson } from './lib/http-client';
import { ms, runLoad, summarize } from './lib/stats';

// npm run bench:images — sync POST /v1/images latency at concurrency 1, 8 and 32; 202-accept
// throughput with #slow; and the floor: a workflow that only returns, started with the same
// Update-with-Start call and awaited the same way. Target: image p50 within 2x the floor at c=8.
//
// BENCH_SCALE (default 1) multiplies request counts; 0.2 gives a quick look.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n: number) => Math.max(10, Math.round(n * scale));

async function main() {
  const stack = await startBenchStack();
  const connection = await Connection.connect({ address: stack.config.temporalAddress! });
  const temporal = new Client({ connection });
  try {
    const created = await fetch(`${stack.apiUrl}/admin/v1/organizations`, {
      method: 'POST',
      headers: { Authorization: 'Bearer adm_bench', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', plan: 'pro', credits: 100_000_000 }),
    }).then((r) => r.json() as Promise<{ id: string; api_keys: { environment: string; secret: string }[] }>);
    const liveKey = created.api_keys.find((k) => k.environment === 'live')!.secret;
    // The load is far above RATE_LIMIT_PER_MINUTE: lift this organization's limit, as an operator would.
    await fetch(`${stack.apiUrl}/admin/v1/organizations/${created.id}`, {
      method: 'PATCH',
      headers: { Authorization: 'Bearer adm_bench', 'Content-Type': 'application/json' },
      body: JSON.stringify({ rate_limit_per_minute: 1_000_000 }),
    });

    const postImage = async (baseUrl: string, prompt: string, expect: number) => {
      const res = await postJson(`${baseUrl}/v1/images`, { Authorization: `Bearer ${liveKey}` }, { model: 'flux-schnell', prompt });
      return res.status === expect;
    };
    const image = () => postImage(stack.apiUrl, 'a lighthouse at dawn', 200);
    const floor = async () => {
      const start = new WithStartWorkflowOperation<typeof floorWorkflow>('floorWorkflow', {
        workflowId: newId('gen'),
        taskQueue: stack.config.taskQueue,
        args: [],
        // Like every workflow, bounded: it answers its update and returns at once.
        workflowExecutionTimeout: '1m',
        workflowIdConflictPolicy: 'FAIL',
      });
      await temporal.workflow.executeUpdateWithStart(readyUpdate, { startWorkflowOperation: start });
      return (await (await start.workflowHandle()).result()) === 'succeeded';
    };

    process.stderr.write('[bench] warming up\n');
    await runLoad(count(30), 4, image);
    await runLoad(count(30), 4, floor);

    const rows: string[] = [];
    const ratios: string[] = [];
    for (const concurrency of [1, 8, 32]) {
      const total = count(concurrency === 1 ? 100 : concurrency === 8 ? 400 : 640);
      const img = summarize(await runLoad(total, concurrency, image));
      const flr = summarize(await runLoad(total, concurrency, floor));
      rows.push(
        `sync POST /v1/images  c=${String(concurrency).padEnd(2)}  n=${img.n}  p50 ${ms(img.p50)}  p95 ${ms(img.p95)}  p99 ${ms(img.p99)}  ${img.perSecond.toFixed(1)} req/s  errors ${img.errors}`,
        `floor workflow        c=${String(concurrency).padEnd(2)}  n=${flr.n}  p50 ${ms(flr.p50)}  p95 ${ms(flr.p95)}  p99 ${ms(flr.p99)}  ${flr.perSecond.toFixed(1)} wf/s   errors ${flr.errors}`,
      );
      ratios.push(`c=${concurrency}: image p50 / floor p50 = ${(img.p50 / flr.p50).toFixed(2)}x`);
    }

    // 202-accept: a second API with SYNC_TIMEOUT_MS=0 answers as soon as credits are reserved.
    const acceptApi = await stack.startExtraApi({ syncTimeoutMs: 0 });
    const acceptTotal = count(500);
    const accepted = summarize(await runLoad(acceptTotal, 16, () => postImage(acceptApi.url, 'later #slow:1000', 202)));
    rows.push(
      `202-accept (#slow)    c=16  n=${accepted.n}  p50 ${ms(accepted.p50)}  p99 ${ms(accepted.p99)}  ${accepted.perSecond.toFixed(1)} accepted/s  errors ${accepted.errors}`,
    );
    await acceptApi.close();

    console.log(
      [
        '',
        `bench:images (embedded stack on the ${stack.temporalLabel}; flux-schnell 1024x1024 PNG via the simulator)`,
        ...rows,
        '',
        ...ratios,
        'target: c=8 ratio <= 2.00x',
        '',
      ].join('\n'),
    );
    process.stderr.write('[bench] letting the accepted jobs drain before stopping\n');
    await new Promise((resolve) => setTimeout(resolve, 5000));
  } finally {
    await connection.close();
    await stack.stop();
  }
}

runBench(main);
