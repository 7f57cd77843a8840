import { Client, Connection } from '@temporalio/client';
import { writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '../db/knex';
import { generateSecretBoxKey } from '../lib/secret-box';
import type { bareWorkflow } from './workflows/floor';
import { selfSignedCertificate, startHttpsServer } from '../test/helpers/tls';
import { startBenchStack } from './lib/embedded-stack';
import { postJson, requestJson } from './lib/http-client';
import { runBench } from './lib/run-bench';
import { RELAY_START_CONCURRENCY } from '../activities/webhooks/relay';
import { ms, percentile, runLoad, summarize } from './lib/stats';
import { newTally, postgresCommits, tallyTable } from './lib/cost-tally';

// npm run bench:webhooks — webhook delivery on the embedded stack (in-process worker):
//   1. event-to-receipt latency: sandbox image generations (each commits a generation.completed
//      event) at concurrency 4, to a receiver answering 200 at once, subscribed to `*`;
//   2. delivery throughput: a burst of N events committed in one transaction (as N settlements
//      landing together would), from the commit to the last receipt: the relay fans them out and
//      starts N delivery workflows, each signing, POSTing and recording; against the floor, a burst
//      of N bare workflows (start, return at once, result) started with the relay's own call,
//      RELAY_START_CONCURRENCY at a time, first start -> last result. Five rounds, interleaved; the
//      target compares medians: deliveries/s >= 0.8x the bare workflows/s. The CPU each process
//      spent and the Postgres commits, per delivery and per bare workflow, say where the time goes.
//      For reference, bare workflows closed-loop at c=8, and N replays through the API at
//      concurrency 8, for the API's cost;
//   3. (1) again with a second subscription whose receiver hangs 15 s on every request (the
//      default WEBHOOK_TIMEOUT_MS): the healthy receiver's latency should not move.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const n = (base: number) => Math.max(10, Math.round(base * scale));
const ROUNDS = 5;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

async function main() {
  const certificate = await selfSignedCertificate();
  const caFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'bench-webhooks-')), 'ca.pem');
  await writeFile(caFile, certificate.cert);
  const stack = await startBenchStack({ webhookSecretsKey: generateSecretBoxKey(), webhookCaCerts: caFile, allowPrivateWebhookUrls: true });
  const receipts = new Map<string, number>();
  const healthy = await startHttpsServer(certificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const id = String(req.headers['x-service-delivery']);
      receipts.set(id, Date.now());
      res.writeHead(200).end();
      const envelope = JSON.parse(body) as { id: string; created_at: string };
      eventReceipts.push({ eventId: envelope.id, createdAt: Date.parse(envelope.created_at), receivedAt: Date.now() });
    });
  });
  const eventReceipts: { eventId: string; createdAt: number; receivedAt: number }[] = [];
  const hanging = await startHttpsServer(certificate, () => undefined);
  try {
    const admin = { Authorization: 'Bearer adm_bench' };
    const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'webhook bench', plan: 'pro', credits: 1_000_000 })).body);
    await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
    const secretOf = (env: string) => org.api_keys.find((k: { environment: string }) => k.environment === env).secret as string;
    const testKey = { Authorization: `Bearer ${secretOf('test')}` };
    const hook = JSON.parse((await postJson(`${stack.apiUrl}/v1/webhooks`, testKey, { url: `https://127.0.0.1:${healthy.port}/hook`, events: ['*'] })).body);
    if (!hook.id) throw new Error(`subscription failed: ${JSON.stringify(hook)}`);

    const generate = async () => (await postJson(`${stack.apiUrl}/v1/images`, testKey, { model: 'flux-schnell', prompt: 'announce' })).status === 200;
    const latencyPhase = async (count: number) => {
      const before = eventReceipts.length;
      await runLoad(count, 4, generate);
      await waitUntil(() => eventReceipts.length >= before + count, 60_000);
      return eventReceipts
        .slice(before)
        .map((r) => r.receivedAt - r.createdAt)
        .sort((a, b) => a - b);
    };

    process.stderr.write('[bench] warming up\n');
    await latencyPhase(n(20));
    process.stderr.write('[bench] event-to-receipt latency\n');
    const quiet = await latencyPhase(n(200));

    process.stderr.write('[bench] delivery throughput: a burst of events, replays, then the floor\n');
    const total = n(300);
    const knex = createKnex(stack.config.databaseUrl!);
    const connection = await Connection.connect({ address: stack.config.temporalAddress! });
    const temporal = new Client({ connection });
    let burstNumber = 0;
    const eventBurst = async () => {
      const tag = `${burstNumber++}_${Date.now()}`;
      const burst = Array.from({ length: total }, (_, i) => ({
        id: `evt_burst${i}_${tag}`,
        organization_id: org.id,
        environment: 'test',
        type: 'generation.completed',
        subject_id: `gen_burst${i}_${tag}`,
        data: JSON.stringify({ generation_id: `gen_burst${i}`, modality: 'image', status: 'succeeded', charged_credits: 0 }),
      }));
      const before = eventReceipts.length;
      const committedAt = Date.now();
      await knex.transaction(async (trx) => void (await trx('events').insert(burst)));
      await waitUntil(() => eventReceipts.length >= before + total, 180_000);
      return (total / (Math.max(...eventReceipts.slice(before).map((r) => r.receivedAt)) - committedAt)) * 1000;
    };
    // The same burst of bare workflows, started as the relay starts deliveries (the same call,
    // RELAY_START_CONCURRENCY at a time, on the webhook queue), each returning at once; first start
    // -> last result.
    let f = 0;
    const bareRun = async () => {
      const handle = await temporal.workflow.start<typeof bareWorkflow>('bareWorkflow', {
        workflowId: `bare-${Date.now()}-${f++}`,
        taskQueue: stack.config.webhookTaskQueue,
        args: [],
      });
      await handle.result();
      return true;
    };
    const workflowBurst = async () => {
      const t0 = Date.now();
      const load = await runLoad(total, RELAY_START_CONCURRENCY, bareRun);
      if (load.errors > 0) throw new Error(`${load.errors} bare workflows failed`);
      return (total / (Date.now() - t0)) * 1000;
    };
    // Rounds interleaved, so a drift in the machine's speed (the Temporal dev server's SQLite file
    // flushing, mostly) moves both sides alike; the target compares the medians.
    const rounds: { deliveries: number; workflows: number }[] = [];
    const pgCommits = postgresCommits(knex);
    const spent = { deliveries: newTally(pgCommits), floors: newTally(pgCommits) };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({ deliveries: await spent.deliveries.during(eventBurst), workflows: await spent.floors.during(workflowBurst) });
    }
    await knex.destroy();

    const delivered = JSON.parse((await requestJson('GET', `${stack.apiUrl}/v1/webhooks/${hook.id}/deliveries?limit=1`, testKey)).body).data[0].id as string;
    const replayIds: string[] = [];
    const t0 = Date.now();
    const replays = summarize(
      await runLoad(total, 8, async () => {
        const res = await postJson(`${stack.apiUrl}/v1/webhook-deliveries/${delivered}/replay`, testKey, {});
        if (res.status !== 202) return false;
        replayIds.push(JSON.parse(res.body).id);
        return true;
      }),
    );
    await waitUntil(() => replayIds.every((id) => receipts.has(id)), 120_000);
    const lastReceipt = Math.max(...replayIds.map((id) => receipts.get(id)!));
    const replaysPerSecond = (replayIds.length / (lastReceipt - t0)) * 1000;

    const closedLoop = summarize(await runLoad(total, 8, bareRun));
    await connection.close();

    process.stderr.write('[bench] latency again, with a receiver that hangs 15 s on every request\n');
    await postJson(`${stack.apiUrl}/v1/webhooks`, testKey, { url: `https://127.0.0.1:${hanging.port}/hook`, events: ['*'] });
    const withHanging = await latencyPhase(n(200));

    const line = (name: string, sorted: number[]) => `${name.padEnd(44)} n=${sorted.length}  p50 ${ms(percentile(sorted, 0.5))}  p99 ${ms(percentile(sorted, 0.99))}`;
    console.log(`\nbench:webhooks (embedded stack on the ${stack.temporalLabel}, in-process worker, receivers on local https)\n`);
    console.log('event-to-receipt (envelope created_at -> receiver), events from sandbox image generations at c=4:');
    console.log(line('  healthy receiver alone', quiet));
    console.log(line('  healthy receiver, a hanging one subscribed', withHanging));
    console.log('\nthroughput:');
    for (const [i, r] of rounds.entries()) {
      console.log(
        `  round ${i + 1}: burst of ${total} events (commit -> last receipt) ${r.deliveries.toFixed(1)} deliveries/s;  ${total} bare workflows (c=${RELAY_START_CONCURRENCY}) ${r.workflows.toFixed(1)} workflows/s;  ${(r.deliveries / r.workflows).toFixed(2)}x`,
      );
    }
    const deliveriesPerSecond = median(rounds.map((r) => r.deliveries));
    const workflowsPerSecond = median(rounds.map((r) => r.workflows));
    console.log(
      `  medians: ${deliveriesPerSecond.toFixed(1)} deliveries/s against ${workflowsPerSecond.toFixed(1)} bare workflows/s = ${(deliveriesPerSecond / workflowsPerSecond).toFixed(2)}x (target >= 0.8x)`,
    );
    console.log('  CPU and Postgres commits per delivery and per bare workflow, over the five rounds:');
    console.log(
      tallyTable([
        ['per delivery', spent.deliveries, total * ROUNDS],
        ['per bare workflow', spent.floors, total * ROUNDS],
      ]),
    );
    console.log(
      `  bare workflows closed-loop at c=8 (for reference)  n=${closedLoop.n}  ${closedLoop.perSecond.toFixed(1)} workflows/s  (p50 ${ms(closedLoop.p50)}, errors ${closedLoop.errors})`,
    );
    console.log(
      `  replays through the API (c=8, POST -> receipt)  n=${replayIds.length}  ${replaysPerSecond.toFixed(1)} deliveries/s  (replay answers p50 ${ms(replays.p50)}, errors ${replays.errors})`,
    );
  } finally {
    await healthy.close();
    await hanging.close();
    await stack.stop();
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

runBench(main);
