import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createKnex } from '../db/knex';
import { getWalletBalance, sumLedger } from '../db/ledger';
import { checkMoneyInvariants } from '../test/helpers/money-invariants';
import { startChaosStack, type FaultWindow } from './lib/chaos-stack';
import { requestJson } from './lib/http-client';
import { recoveryMs, startTrickle, type Probe, type ProbeOutcome } from './lib/probe-trickle';
import { answerViolations, recoveries } from './chaos/answers';
import { checkOutcomes, waitUntilTerminal } from './chaos/checks';
import { checkComparisons, waitUntilFinished } from './chaos/comparison-checks';
import { interleave, planComparisons, terminateComparisons, type PlannedComparison } from './chaos/comparison-workload';
import { formatSummary } from './chaos/report';
import { checkDeliveries, startChaosReceiver, strandedDeliveries, waitUntilDelivered } from './chaos/webhook-checks';
import { generateSecretBoxKey } from '../lib/secret-box';
import { selfSignedCertificate } from '../test/helpers/tls';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { cancelSpread, planWorkload, submitWorkload, type PlannedGeneration, type Submitted } from './chaos/workload';

// npm run chaos — not part of npm test. The embedded stack with the API and the worker as their
// own processes; 200 mixed sync and async generations and 25 comparisons of 2 or 3 models in
// flight (some #fail or #fail:<slug>, some cancelled on the way, two comparison workflows
// terminated) while the worker is SIGKILLed and replaced, the Temporal dev server is stopped and
// started again on its database file, and Postgres is stopped and started again on its data.
// Then it checks that every generation ended exactly once with its money accounted for, that every
// comparison got the verdict its children give, once, with its one event (the reconciler records
// it for a comparison whose workflow died), that the API answered 503 (never 500, never silence)
// while a dependency was down, and how long each dependency's return took to show in a successful
// request. Every event goes to a webhook receiver that refuses each delivery's first attempt, so
// deliveries wait on their retry timers through the faults; each must end delivered, with its
// attempts numbered without gaps or doubles, and none may be left open with its workflow closed.
// Exit code 1 on any violation.

const GENERATIONS = Number(process.env.CHAOS_GENERATIONS ?? 200);
/** One comparison after every COMPARISON_EVERY generations. */
const COMPARISON_EVERY = 8;
const COMPARISONS = Number(process.env.CHAOS_COMPARISONS ?? Math.round(GENERATIONS / COMPARISON_EVERY));
/** Comparison workflows terminated before the faults: only the reconciler can give them their verdict. */
const TERMINATED_COMPARISONS = 2;
const OUTAGE_MS = 5_000;
const SETTLE_MS = 3_000;
const RECOVERY_LIMIT_MS = 60_000;
const DRAIN_LIMIT_MS = 5 * 60_000;
const PROBE_TIMEOUT_MS = 15_000;
const PROBES = ['balance', 'image'];

const t0 = Date.now();
const say = (line: string) => process.stderr.write(`[chaos +${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until every probe has had a 2xx sent after `fault.backAt`, at most RECOVERY_LIMIT_MS. */
async function waitForRecovery(outcomes: ProbeOutcome[], fault: FaultWindow): Promise<void> {
  const deadline = Date.now() + RECOVERY_LIMIT_MS;
  while (Date.now() < deadline && PROBES.some((p) => recoveryMs(outcomes, p, fault.backAt) === undefined)) await sleep(200);
}

async function main(): Promise<number> {
  say('starting Postgres, Temporal, the API and the worker');
  const certificate = await selfSignedCertificate();
  const caFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'chaos-webhooks-')), 'ca.pem');
  await writeFile(caFile, certificate.cert);
  const receiver = await startChaosReceiver(certificate);
  // Both processes seal and open webhook secrets with one key; attempts 2 s apart, six of them.
  const webhookEnv = {
    WEBHOOK_SECRETS_KEY: generateSecretBoxKey(),
    WEBHOOK_CA_CERTS: caFile,
    ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0,2s,2s,2s,2s,2s',
  };
  const stack = await startChaosStack({
    // Sync jobs answer 202 after 5 s and admission gives up after 10 s, so every valid request is
    // answered within the probes' 15 s deadline even while the worker is gone.
    apiEnv: { SYNC_TIMEOUT_MS: '5000', ADMISSION_TIMEOUT_MS: '10000', ...webhookEnv },
    // Upscale has no prompt for #slow; this keeps it in flight through the faults.
    workerEnv: { SIMULATOR_ASYNC_LATENCY_MS: '20000', ...webhookEnv },
    say,
  });
  // Ctrl-C stops what the run started instead of leaving Postgres, Temporal and the services behind.
  const interrupt = () => void stack.stop(true).finally(() => process.exit(130));
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  const violations: string[] = [];
  let keep = process.env.CHAOS_KEEP === '1';
  try {
    const admin = { Authorization: `Bearer ${stack.adminToken}` };
    const created = await requestJson('POST', `${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'chaos', plan: 'pro', credits: 100_000_000 });
    const org = JSON.parse(created.body) as { id: string; api_keys: { environment: string; secret: string }[] };
    await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
    const key = org.api_keys.find((k) => k.environment === 'live')!.secret;
    const auth = { Authorization: `Bearer ${key}` };
    const hook = JSON.parse((await requestJson('POST', `${stack.apiUrl}/v1/webhooks`, auth, { url: receiver.url, events: ['*'] })).body);
    if (!hook.secret) throw new Error(`the webhook subscription failed: ${JSON.stringify(hook)}`);
    receiver.setSecret(hook.secret);
    const subscribedAt = new Date(hook.created_at);
    const input = JSON.parse((await requestJson('POST', `${stack.apiUrl}/v1/images`, auth, { model: 'flux-schnell', prompt: 'upscale input' })).body);

    say(`submitting ${GENERATIONS} generations and ${COMPARISONS} comparisons`);
    const imageUrl = input.outputs[0].url as string;
    const planned = interleave(planWorkload(GENERATIONS, imageUrl), planComparisons(COMPARISONS, imageUrl), COMPARISON_EVERY);
    const { submitted: accepted, rejected } = await submitWorkload(stack.apiUrl, key, planned, 16);
    violations.push(...rejected.map((r) => `workload request refused before any fault: ${r}`));
    const submitted = accepted.filter((s): s is Submitted<PlannedGeneration> => s.kind === 'generation');
    const comparisons = accepted.filter((s): s is Submitted<PlannedComparison> => s.kind === 'comparison');
    say(
      `${submitted.length} generations accepted (${submitted.filter((s) => s.answeredStatus === 'queued' || s.answeredStatus === 'running').length} still running), ` +
        `${comparisons.length} comparisons`,
    );

    const probes: Probe[] = [
      { name: 'balance', send: (timeoutMs) => requestJson('GET', `${stack.apiUrl}/v1/balance`, auth, undefined, { timeoutMs }) },
      { name: 'image', send: (timeoutMs) => requestJson('POST', `${stack.apiUrl}/v1/images`, auth, { model: 'flux-schnell', prompt: 'probe' }, { timeoutMs }) },
    ];
    const trickle = startTrickle(probes, { everyMs: 200, timeoutMs: PROBE_TIMEOUT_MS, maxDurationMs: 10 * 60_000 });
    await sleep(SETTLE_MS);
    const terminated = await terminateComparisons(stack.temporalAddress, comparisons, TERMINATED_COMPARISONS);
    say(`terminated the workflows of comparisons ${terminated.join(', ')}`);
    const toCancel = submitted.filter((s) => s.cancel).map((s) => s.id);
    const cancelling = cancelSpread(stack.apiUrl, key, toCancel, 1_500, 90_000);
    // Fewer, so further apart: they land through all three faults.
    const comparisonsToCancel = comparisons.filter((c) => c.cancel).map((c) => c.id);
    const cancellingComparisons = cancelSpread(stack.apiUrl, key, comparisonsToCancel, 5_000, 90_000, 'comparisons');

    const faults: FaultWindow[] = [];
    const inject = async (what: string, fault: () => Promise<FaultWindow>) => {
      say(what);
      const window = await fault();
      faults.push(window);
      say(`${window.dependency} back after ${((window.backAt - window.downAt) / 1000).toFixed(1)} s; waiting for a successful request`);
      await waitForRecovery(trickle.outcomes, window);
      await sleep(SETTLE_MS);
    };
    await inject('SIGKILL the worker and start another', () => stack.restartWorker());
    await inject(`stop Temporal for ${OUTAGE_MS / 1000} s, start it again on its database file`, () => stack.restartTemporal(OUTAGE_MS));
    await inject(`stop Postgres for ${OUTAGE_MS / 1000} s, start it again on its data`, () => stack.restartPostgres(OUTAGE_MS));

    const outcomes = await trickle.stop();
    const cancels = await cancelling;
    const comparisonCancels = await cancellingComparisons;
    const cancelAttempts = [...cancels, ...comparisonCancels].flatMap((c) => c.attempts);
    violations.push(...answerViolations([...outcomes, ...cancelAttempts], faults, t0));
    const faultsOver = Date.now();

    const knex = createKnex(stack.databaseUrl);
    const connection = await Connection.connect({ address: stack.temporalAddress });
    const temporal = new Client({ connection });
    try {
      say('faults over; waiting for every generation to end');
      const open = await waitUntilTerminal(knex, org.id, DRAIN_LIMIT_MS, say);
      const drainedMs = Date.now() - faultsOver;
      // The same deadline: a comparison whose workflow died waits for the reconciler's next run.
      const openComparisons = await waitUntilFinished(knex, org.id, Math.max(0, DRAIN_LIMIT_MS - drainedMs), say);
      const comparisonsDrainedMs = Date.now() - faultsOver;
      const probeIds = outcomes.flatMap((o) => (o.probe === 'image' && o.id ? [o.id] : []));
      const outcome = await checkOutcomes({ knex, temporal, apiUrl: stack.apiUrl, key, organizationId: org.id, submitted, probeIds, cancels });
      violations.push(...outcome.violations);
      const compared = await checkComparisons({
        knex,
        temporal,
        apiUrl: stack.apiUrl,
        key,
        organizationId: org.id,
        submitted: comparisons,
        cancels: comparisonCancels,
        workerLog: path.join(stack.dir, 'logs', 'worker.log'),
      });
      violations.push(...compared.violations.map((v) => `comparison: ${v}`));
      say('waiting for every webhook delivery to end');
      const undelivered = await waitUntilDelivered(knex, org.id, DRAIN_LIMIT_MS);
      if (undelivered > 0) violations.push(`webhooks: ${undelivered} events or deliveries still open after the drain limit`);
      const stranded = await strandedDeliveries(knex, temporal, org.id);
      violations.push(...stranded.map((v) => `webhooks: ${v}`));
      const hooks = await checkDeliveries({ knex, organizationId: org.id, subscriptionId: hook.id, since: subscribedAt, receiver });
      violations.push(...hooks.violations.map((v) => `webhooks: ${v}`));
      const money = await checkMoneyInvariants(knex, temporal, { organizationId: org.id });
      violations.push(...money.map((m) => `money: ${m}`));
      violations.push(...stack.unexpectedExits.map((e) => `process: ${e}`));
      const recovered = recoveries(outcomes, faults, PROBES);
      for (const r of recovered) {
        if (r.worstMs === undefined) violations.push(`recovery: not every probe succeeded within ${RECOVERY_LIMIT_MS / 1000} s of ${r.fault.dependency} coming back`);
      }
      console.log(
        formatSummary({
          planned: GENERATIONS,
          submitted,
          probeIds,
          rows: outcome.rows,
          notTerminal: open,
          drainedMs,
          cancels,
          wallet: await getWalletBalance(knex, org.id),
          ledger: await sumLedger(knex, org.id),
          moneyViolations: money,
          answers: [...outcomes, ...cancelAttempts],
          faults,
          recovered,
          probes: PROBES,
          unexpectedExits: stack.unexpectedExits.length,
          comparisons: {
            rows: compared.rows,
            submitted: comparisons,
            cancels: comparisonCancels,
            notFinished: openComparisons,
            drainedMs: comparisonsDrainedMs,
            workflows: compared.workflows,
            reconciled: compared.reconciled,
            terminated,
          },
          totalMs: Date.now() - t0,
          violations,
        }),
      );
      const f = hooks.figures;
      console.log(
        `\nwebhooks: ${f.events} events after subscribing, ${f.deliveries} deliveries (exactly one per event: ${f.events === f.deliveries ? 'yes' : 'NO'}), ` +
          `${f.attempts} attempts recorded, ${f.retried} deliveries retried; requests the receiver saw beyond the recorded attempts ` +
          `(an attempt sent, its worker killed before recording it): ${f.extraRequests}${f.extras.length ? ` (${f.extras.join(', ')})` : ''}`,
      );
    } finally {
      await connection.close();
      await knex.destroy();
    }
  } catch (err) {
    violations.push(`the run itself failed: ${(err as Error).stack ?? String(err)}`);
    console.error(err);
  } finally {
    keep ||= violations.length > 0;
    await receiver.close();
    await stack.stop(keep);
    if (keep) console.log(`logs (logs/api.log, logs/worker.log) and data kept in ${stack.dir}; rm -rf it when done`);
  }
  return violations.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
