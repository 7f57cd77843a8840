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
import { formatRatio, interleaved, ratioOf, runBenchmark, type TargetResult } from './lib/harness';
import { RELAY_START_CONCURRENCY } from '../activities/webhooks/relay';
import { ms, percentile, runLoad, summarize } from './lib/stats';
import { newTally, postgresCommits, tallyTable, type Tally } from './lib/cost-tally';
import { closesOf, untilClosed, type WorkflowClose } from './lib/workflow-closes';

// npm run bench:webhooks — webhook delivery on the embedded stack (in-process worker), receivers on
// local https, a subscription to `*`:
//   1. event-to-receipt latency (reported, no target): sandbox image generations (each commits a
//      generation.completed event) at concurrency 4, to a receiver answering 200 at once;
//   2. delivery throughput against a true floor, in ROUNDS interleaved rounds (each side first in
//      turn). Deliveries: a burst of N events committed in one transaction (as N settlements landing
//      together would); the relay fans them out and starts N delivery workflows, each signing,
//      POSTing and recording; timed from the commit to the last delivery workflow's close. Floor: N
//      bare workflows (started, return at once) started with the relay's own call on the webhook
//      queue, RELAY_START_CONCURRENCY *starts* in flight and nothing waiting on any result; timed
//      from the first start to the last close. Both sides' close times are read from Temporal
//      afterwards (describe), so neither clock waits on a client. Before every round the relay is
//      idle (every event fanned out, every delivery started) and every delivery has closed, so no
//      round inherits another's tail. Target: deliveries/s >= 0.8x bare workflows/s, the median of
//      the per-round ratios. Sanity check: a delivery does strictly more Temporal work than a bare
//      workflow, so Temporal's CPU per delivery below its CPU per bare workflow voids the run (the
//      floor would not be a floor). Every delivery not received and recorded as succeeded, and
//      every failed start, voids the run too;
//   3. N replays through the API at concurrency 8 (reported), for the API's cost;
//   4. (1) again with a second subscription whose receiver hangs 15 s on every request (the
//      default WEBHOOK_TIMEOUT_MS; those deliveries failing is the plan): the healthy receiver's
//      latency should not move.
// BENCH_SCALE scales N (300) and the latency samples; BENCH_STACK=prod runs Temporal's production
// server (bench/lib/bench-temporal.ts).

const scale = Number(process.env.BENCH_SCALE ?? 1);
const n = (base: number) => Math.max(10, Math.round(base * scale));
const ROUNDS = 5;
const TARGET = 0.8;
const SIDES = ['deliveries', 'floor'] as const;

interface Receipt {
  deliveryId: string;
  eventId: string;
  createdAt: number;
  receivedAt: number;
}

/** Temporal's CPU in a tally: the dev server, or the production server (BENCH_STACK=prod). */
const temporalCpuMs = (tally: Tally) => [...tally.cpu].filter(([name]) => name.startsWith('Temporal')).reduce((sum, [, cpuMs]) => sum + cpuMs, 0);

runBenchmark('webhooks', async (errors) => {
  const certificate = await selfSignedCertificate();
  const caFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'bench-webhooks-')), 'ca.pem');
  await writeFile(caFile, certificate.cert);
  const stack = await startBenchStack({ webhookSecretsKey: generateSecretBoxKey(), webhookCaCerts: caFile, allowPrivateWebhookUrls: true });
  const receipts: Receipt[] = [];
  const byDelivery = new Map<string, Receipt>();
  const healthy = await startHttpsServer(certificate, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const envelope = JSON.parse(body) as { id: string; created_at: string };
      const receipt = { deliveryId: String(req.headers['x-service-delivery']), eventId: envelope.id, createdAt: Date.parse(envelope.created_at), receivedAt: Date.now() };
      receipts.push(receipt);
      byDelivery.set(receipt.deliveryId, receipt);
      res.writeHead(200).end();
    });
  });
  const hanging = await startHttpsServer(certificate, () => undefined);
  const knex = createKnex(stack.config.databaseUrl!);
  const connection = await Connection.connect({ address: stack.config.temporalAddress! });
  const temporal = new Client({ connection });
  try {
    const admin = { Authorization: 'Bearer adm_bench' };
    const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'webhook bench', plan: 'pro', credits: 1_000_000 })).body);
    await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
    const secretOf = (env: string) => org.api_keys.find((k: { environment: string }) => k.environment === env).secret as string;
    const testKey = { Authorization: `Bearer ${secretOf('test')}` };
    const hook = JSON.parse((await postJson(`${stack.apiUrl}/v1/webhooks`, testKey, { url: `https://127.0.0.1:${healthy.port}/hook`, events: ['*'] })).body);
    if (!hook.id) throw new Error(`subscription failed: ${JSON.stringify(hook)}`);

    const generate = async () => {
      try {
        const res = await postJson(`${stack.apiUrl}/v1/images`, testKey, { model: 'flux-schnell', prompt: 'announce' });
        if (res.status === 200) return true;
        errors.unexpected('POST /v1/images', `${res.status} ${res.body.slice(0, 200)}`);
      } catch (err) {
        errors.unexpected('POST /v1/images', err);
      }
      return false;
    };
    const latencyPhase = async (count: number) => {
      const before = receipts.length;
      const load = await runLoad(count, 4, generate);
      await waitUntil(() => receipts.length >= before + count - load.errors, 60_000, 'the latency phase’s deliveries');
      return receipts
        .slice(before)
        .map((r) => r.receivedAt - r.createdAt)
        .sort((a, b) => a - b);
    };

    process.stderr.write('[bench] warming up\n');
    await latencyPhase(n(20));
    process.stderr.write('[bench] event-to-receipt latency\n');
    const quiet = await latencyPhase(n(200));

    process.stderr.write('[bench] delivery throughput against the floor, interleaved rounds\n');
    const total = n(300);
    const pgCommits = postgresCommits(knex);
    const spent: Record<(typeof SIDES)[number], Tally> = { deliveries: newTally(pgCommits), floor: newTally(pgCommits) };
    const closedDeliveries = new Set<string>();
    /** The relay idle (every event fanned out, every delivery started) and every delivery's workflow closed. */
    const untilQuiet = async () => {
      const count = async (query: Promise<{ count: string | number }[]>) => Number((await query)[0]!.count);
      await waitUntilAsync(
        async () =>
          (await count(knex('events').whereNull('dispatched_at').count())) === 0 &&
          (await count(knex('webhook_deliveries').where({ workflow_started: false }).count())) === 0 &&
          (await count(knex('webhook_deliveries').where({ status: 'pending' }).count())) === 0,
        120_000,
        'the relay to go idle and every delivery to end',
        // Sparingly: Postgres reports its commit counts late, so this polling's commits would
        // spill into the next round's tally.
        200,
      );
      const open = (await knex('webhook_deliveries').pluck('id')).filter((id: string) => !closedDeliveries.has(id));
      await untilClosed(temporal, open);
      for (const id of open) closedDeliveries.add(id);
    };
    /** The last close, checking that every workflow completed. */
    const lastClose = (where: string, closes: WorkflowClose[]) => {
      for (const c of closes.filter((c) => c.status !== 'COMPLETED' || !c.closeTime)) errors.unexpected(where, `workflow ${c.workflowId} ended ${c.status}`);
      return Math.max(...closes.map((c) => c.closeTime?.getTime() ?? 0));
    };

    let burstNumber = 0;
    const deliveryRound = async (round: number) => {
      const where = `round ${round + 1}, deliveries`;
      const tag = `${burstNumber++}_${Date.now()}`;
      const burst = Array.from({ length: total }, (_, i) => ({
        id: `evt_burst${i}_${tag}`,
        organization_id: org.id,
        environment: 'test',
        type: 'generation.completed',
        subject_id: `gen_burst${i}_${tag}`,
        data: JSON.stringify({ generation_id: `gen_burst${i}`, modality: 'image', status: 'succeeded', charged_credits: 0 }),
      }));
      const eventIds = new Set(burst.map((e) => e.id));
      const before = receipts.length;
      const received = () => receipts.slice(before).filter((r) => eventIds.has(r.eventId));
      let committingAt = 0;
      const deliveryIds = await spent.deliveries.during(async () => {
        await knex.transaction(async (trx) => {
          await trx('events').insert(burst);
          // The clock starts as the commit is sent: the events exist for the relay from then on.
          committingAt = Date.now();
        });
        await waitUntil(() => received().length >= total, 180_000, `${total} deliveries`);
        // The receipts name the deliveries (the workflow id is the delivery id); the workflow
        // still records the attempt and closes after the receipt.
        const ids = [...new Set(received().map((r) => r.deliveryId))];
        await untilClosed(temporal, ids);
        return ids;
      });
      for (const id of deliveryIds) closedDeliveries.add(id);
      const rows: { id: string; status: string }[] = await knex('webhook_deliveries')
        .whereIn('event_id', [...eventIds])
        .select('id', 'status');
      if (rows.length !== total) errors.unexpected(where, `${rows.length} deliveries fanned out for ${total} events`);
      for (const row of rows.filter((r) => r.status !== 'succeeded' || !byDelivery.has(r.id)))
        errors.unexpected(where, `delivery ${row.id} ended ${row.status}${byDelivery.has(row.id) ? '' : ', never received'}`);
      const end = lastClose(where, await closesOf(temporal, deliveryIds));
      return (total / (end - committingAt)) * 1000;
    };

    let floorNumber = 0;
    /** N bare workflows, RELAY_START_CONCURRENCY starts in flight, as the relay starts deliveries; nothing waits on a result. */
    const startBare = async (count: number, where: string) => {
      const tag = `${floorNumber++}_${Date.now()}`;
      const ids = Array.from({ length: count }, (_, i) => `bare_${tag}_${i}`);
      const started: string[] = [];
      let next = 0;
      const firstStartAt = Date.now();
      await Promise.all(
        Array.from({ length: RELAY_START_CONCURRENCY }, async () => {
          while (next < ids.length) {
            const workflowId = ids[next++]!;
            try {
              await temporal.workflow.start<typeof bareWorkflow>('bareWorkflow', {
                workflowId,
                taskQueue: stack.config.webhookTaskQueue,
                args: [],
                workflowIdReusePolicy: 'REJECT_DUPLICATE',
              });
              started.push(workflowId);
            } catch (err) {
              errors.unexpected(`${where}: start ${workflowId}`, err);
            }
          }
        }),
      );
      await untilClosed(temporal, started);
      return { firstStartAt, started };
    };
    const floorRound = async (round: number) => {
      const where = `round ${round + 1}, floor`;
      const { firstStartAt, started } = await spent.floor.during(() => startBare(total, where));
      const end = lastClose(where, await closesOf(temporal, started));
      return (started.length / (end - firstStartAt)) * 1000;
    };

    // A first burst of each, untimed: the delivery path has run in the latency phase, the floor's not yet.
    await untilQuiet();
    await startBare(n(50), 'floor warm-up');
    const perSecond = await interleaved(ROUNDS, SIDES, async (side, round) => {
      await untilQuiet();
      return side === 'deliveries' ? deliveryRound(round) : floorRound(round);
    });
    await untilQuiet();

    const ratio = ratioOf(perSecond.deliveries, perSecond.floor);
    const temporalPerDelivery = temporalCpuMs(spent.deliveries) / (total * ROUNDS);
    const temporalPerBare = temporalCpuMs(spent.floor) / (total * ROUNDS);
    if (!(temporalPerBare > 0)) errors.unexpected('the CPU sanity check', 'no CPU measured for the Temporal process: its label in bench/lib/process-cpu.ts no longer matches');
    else if (temporalPerDelivery < temporalPerBare)
      errors.unexpected(
        'the CPU sanity check',
        `Temporal spent ${ms(temporalPerDelivery)} per delivery, below its ${ms(temporalPerBare)} per bare workflow: a delivery does strictly more Temporal work than a bare workflow, so this floor is not a floor`,
      );

    process.stderr.write('[bench] replays through the API\n');
    const delivered = JSON.parse((await requestJson('GET', `${stack.apiUrl}/v1/webhooks/${hook.id}/deliveries?limit=1`, testKey)).body).data[0].id as string;
    const replayIds: string[] = [];
    const t0 = Date.now();
    const replays = summarize(
      await runLoad(total, 8, async () => {
        try {
          const res = await postJson(`${stack.apiUrl}/v1/webhook-deliveries/${delivered}/replay`, testKey, {});
          if (res.status === 202) {
            replayIds.push(JSON.parse(res.body).id);
            return true;
          }
          errors.unexpected('POST /v1/webhook-deliveries/:id/replay', `${res.status} ${res.body.slice(0, 200)}`);
        } catch (err) {
          errors.unexpected('POST /v1/webhook-deliveries/:id/replay', err);
        }
        return false;
      }),
    );
    await waitUntil(() => replayIds.every((id) => byDelivery.has(id)), 120_000, 'the replays');
    const replaysPerSecond = (replayIds.length / (Math.max(...replayIds.map((id) => byDelivery.get(id)!.receivedAt)) - t0)) * 1000;

    process.stderr.write('[bench] latency again, with a receiver that hangs 15 s on every request\n');
    await postJson(`${stack.apiUrl}/v1/webhooks`, testKey, { url: `https://127.0.0.1:${hanging.port}/hook`, events: ['*'] });
    const withHanging = await latencyPhase(n(200));

    const line = (name: string, sorted: number[]) => `${name.padEnd(44)} n=${sorted.length}  p50 ${ms(percentile(sorted, 0.5))}  p99 ${ms(percentile(sorted, 0.99))}`;
    console.log(`\nbench:webhooks (embedded stack on the ${stack.temporalLabel}, in-process worker, receivers on local https)\n`);
    console.log('event-to-receipt (envelope created_at -> receiver), events from sandbox image generations at c=4:');
    console.log(line('  healthy receiver alone', quiet));
    console.log(line('  healthy receiver, a hanging one subscribed', withHanging));
    console.log(`\nthroughput, ${total} per round (deliveries: commit -> last close; floor: first start -> last close, ${RELAY_START_CONCURRENCY} starts in flight):`);
    for (let i = 0; i < ROUNDS; i++) {
      const [d, f] = [perSecond.deliveries[i]!, perSecond.floor[i]!];
      console.log(`  round ${i + 1} (${i % 2 === 0 ? 'deliveries' : 'floor'} first): ${d.toFixed(1)} deliveries/s, ${f.toFixed(1)} bare workflows/s, ${(d / f).toFixed(2)}x`);
    }
    console.log(`  CPU and Postgres commits per delivery and per bare workflow, over the ${ROUNDS} rounds:`);
    console.log(
      tallyTable([
        ['per delivery', spent.deliveries, total * ROUNDS],
        ['per bare workflow', spent.floor, total * ROUNDS],
      ]),
    );
    console.log(`  replays through the API (c=8, POST -> receipt)  n=${replayIds.length}  ${replaysPerSecond.toFixed(1)} deliveries/s  (replay answers p50 ${ms(replays.p50)})`);

    const latency = (sorted: number[]) => ({ n: sorted.length, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) });
    const targets: TargetResult[] = [
      { name: 'deliveries/s ÷ bare workflows/s', target: `≥ ${TARGET}x`, result: formatRatio(ratio), pass: ratio.median >= TARGET },
      {
        name: 'Temporal CPU per delivery / per bare workflow (sanity check)',
        target: 'not below (else the run is void)',
        result: `${ms(temporalPerDelivery)} / ${ms(temporalPerBare)}`,
      },
    ];
    return {
      targets,
      figures: {
        perRound: total,
        rounds: ROUNDS,
        deliveriesPerSecond: perSecond.deliveries,
        bareWorkflowsPerSecond: perSecond.floor,
        ratio,
        cpuMsPerDelivery: Object.fromEntries([...spent.deliveries.cpu].map(([name, cpuMs]) => [name, cpuMs / (total * ROUNDS)])),
        cpuMsPerBareWorkflow: Object.fromEntries([...spent.floor.cpu].map(([name, cpuMs]) => [name, cpuMs / (total * ROUNDS)])),
        postgresCommitsPerDelivery: spent.deliveries.commits / (total * ROUNDS),
        postgresCommitsPerBareWorkflow: spent.floor.commits / (total * ROUNDS),
        eventToReceipt: { healthyAlone: latency(quiet), withHangingReceiver: latency(withHanging) },
        replaysPerSecond,
      },
      notes: [`embedded stack on the ${stack.temporalLabel}, in-process worker; BENCH_SCALE=${scale} (${total} per round)`],
    };
  } finally {
    await connection.close();
    await knex.destroy();
    await healthy.close();
    await hanging.close();
    await stack.stop();
  }
});

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  await waitUntilAsync(async () => check(), timeoutMs, what);
}

async function waitUntilAsync(check: () => Promise<boolean>, timeoutMs: number, what: string, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
