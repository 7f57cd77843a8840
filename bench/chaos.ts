import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createKnex } from '../db/knex';
import { getWalletBalance, sumLedger } from '../db/ledger';
import { checkMoneyInvariants } from '../test/helpers/money-invariants';
import { startChaosStack, type FaultWindow } from './lib/chaos-stack';
import { requestJson } from './lib/http-client';
import { recoveryMs, startTrickle, type Probe, type ProbeOutcome } from './lib/probe-trickle';
import { answerViolations, FAULT_GRACE_MS, recoveries } from './chaos/answers';
import { checkCutOffRequests, sendCutOffRequests, type CutOffFigures, type CutOffRequests } from './chaos/api-kill';
import { checkOutcomes, waitUntilTerminal } from './chaos/checks';
import { checkComparisons, waitUntilFinished } from './chaos/comparison-checks';
import { interleave, planComparisons, terminateComparisons, type PlannedComparison } from './chaos/comparison-workload';
import { formatSummary } from './chaos/report';
import { faultCoverage, MIN_IN_FLIGHT, MIN_IN_FLIGHT_SOAK, voidReasons } from './chaos/fault-coverage';
import { chargedAgainstLedger, fetchApiViews, plannedOutcomeViolations } from './chaos/planned-outcomes';
import { runSoak, seededRandom } from './chaos/soak';
import { runBenchmark, type ErrorLog } from './lib/harness';
import { checkDeliveries, startChaosReceiver, strandedDeliveries, waitUntilDelivered } from './chaos/webhook-checks';
import { generateSecretBoxKey } from '../lib/secret-box';
import { selfSignedCertificate } from '../test/helpers/tls';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { cancelSpread, planWorkload, submitWorkload, type CancelResult, type PlannedGeneration, type Submitted } from './chaos/workload';

// npm run chaos [-- --soak <operations> [--seed <n>]] — not part of npm test; runs under the
// benchmark harness (bench/lib/harness.ts). The embedded stack with the API and the worker as their
// own processes.
//
// Standard run: 200 mixed sync and async generations (BENCH_SCALE scales them, CHAOS_GENERATIONS
// sets them) and one comparison of 2 or 3 models after every eighth generation in flight (some
// #fail or #fail:<slug>, some cancelled on the way, two comparison workflows terminated) while the
// API is SIGKILLed with sync images running on its own worker (API_EMBEDDED_WORKER; the run's
// environment may turn it off) and started again 2 s later, the worker is SIGKILLed and kept away
// 12 s, the Temporal dev server is stopped 5 s and started again on its database file, and Postgres
// is stopped 5 s and started again on its data.
// Soak (--soak <operations>): a stream of that many randomized operations (every modality,
// comparisons, cancels, creations retried and replayed with their Idempotency-Key) with those
// faults coming at random times; --seed replays the same sequence. Its result is
// bench/results/chaos-soak.json, apart from the standard run's.
//
// Then it checks that every generation ended exactly once with its money accounted for and as its
// directives planned (#fail: failed, uncharged; otherwise succeeded, charged; only a cancel may end
// one canceled), that every comparison got the verdict its children give and the one its directives
// planned, once, with its one event (the reconciler records it for a comparison whose workflow
// died), that Σ charged in the ledger equals Σ charged_credits the API returns, that the API
// answered 503 (never 500, never silence) while a dependency was down and never outside a fault
// (FAULT_GRACE_MS after one included; while the API itself was killed, a cut connection), that each
// request the API's kill cut off, retried with its Idempotency-Key, gets its one job back, finished
// by another worker and charged once, and how long each dependency's return took to show in a
// successful request. Every event goes to a webhook receiver that refuses each delivery's first
// attempt, so deliveries wait on their retry timers through the faults; each must end delivered,
// with its attempts numbered without gaps or doubles, and none may be left open with its workflow
// closed.
// Verdict: any violation is a FAIL of the target "no violation" (exit 2); a fault that found fewer
// than MIN_IN_FLIGHT generations in flight or produced no 503 tested nothing, and voids the run
// (exit 1), as does a run that breaks down.

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const GENERATIONS = Number(process.env.CHAOS_GENERATIONS ?? Math.max(40, Math.round(200 * SCALE)));
/** One comparison after every COMPARISON_EVERY generations. */
const COMPARISON_EVERY = 8;
const COMPARISONS = Number(process.env.CHAOS_COMPARISONS ?? Math.round(GENERATIONS / COMPARISON_EVERY));
/** Comparison workflows terminated before the faults: only the reconciler can give them their verdict. */
const TERMINATED_COMPARISONS = 2;
const OUTAGE_MS = 5_000;
/** The API away this long after its kill: requests meanwhile find nothing listening. */
const API_OUTAGE_MS = 2_000;
/** Sync images running on the API's own worker when it is killed. */
const CUT_OFF_REQUESTS = 4;
const ADMISSION_TIMEOUT_MS = 10_000;
/** Longer than admission waits for a worker, so requests sent as it dies are answered 503 provider_unavailable. */
const WORKER_OUTAGE_MS = ADMISSION_TIMEOUT_MS + 2_000;
const SETTLE_MS = 3_000;
const RECOVERY_LIMIT_MS = 60_000;
const DRAIN_LIMIT_MS = 5 * 60_000;
const PROBE_TIMEOUT_MS = 15_000;
/**
 * The image is sync: with API_EMBEDDED_WORKER the API runs it on its own worker, so a worker
 * process's death no longer reaches it. The video is async, admitted by a worker process: while
 * none polls, it is answered 503 provider_unavailable, which is what shows the worker fault.
 */
const PROBES = ['balance', 'image', 'video'];
const SOAK_CONCURRENCY = 6;

/** `--soak <operations>` and `--seed <n>` from the command line. */
function parseArgs(argv: string[]): { soak?: number; seed: number } {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    if (at < 0) return undefined;
    const n = Number(argv[at + 1]);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} takes a positive whole number, got ${argv[at + 1] ?? 'nothing'}`);
    return n;
  };
  return { soak: value('--soak'), seed: value('--seed') ?? Math.floor(Math.random() * 2 ** 31) };
}

const t0 = Date.now();
const say = (line: string) => process.stderr.write(`[chaos +${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until every probe has had a 2xx sent after `fault.backAt`, at most RECOVERY_LIMIT_MS. */
async function waitForRecovery(outcomes: ProbeOutcome[], fault: FaultWindow): Promise<void> {
  const deadline = Date.now() + RECOVERY_LIMIT_MS;
  while (Date.now() < deadline && PROBES.some((p) => recoveryMs(outcomes, p, fault.backAt) === undefined)) await sleep(200);
}

/** What the workload phase leaves for the checks. */
interface Workload {
  headline: string;
  submitted: Submitted<PlannedGeneration>[];
  comparisons: Submitted<PlannedComparison>[];
  cancels: CancelResult[];
  comparisonCancels: CancelResult[];
  /** Answers to requests other than the probes and the cancels (a soak's creations). */
  otherAnswers: ProbeOutcome[];
  terminated: string[];
  violations: string[];
}

async function main(args: { soak?: number; seed: number }, errors: ErrorLog) {
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
    apiEnv: { SYNC_TIMEOUT_MS: '5000', ADMISSION_TIMEOUT_MS: String(ADMISSION_TIMEOUT_MS), ...webhookEnv },
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
    const imageUrl = input.outputs[0].url as string;

    const probes: Probe[] = [
      { name: 'balance', send: (timeoutMs) => requestJson('GET', `${stack.apiUrl}/v1/balance`, auth, undefined, { timeoutMs }) },
      { name: 'image', send: (timeoutMs) => requestJson('POST', `${stack.apiUrl}/v1/images`, auth, { model: 'flux-schnell', prompt: 'probe' }, { timeoutMs }) },
      // One a second: each runs SIMULATOR_ASYNC_LATENCY_MS (20 s) on the worker.
      {
        name: 'video',
        everyTicks: 5,
        send: (timeoutMs) => requestJson('POST', `${stack.apiUrl}/v1/videos`, auth, { model: 'hailuo-02', prompt: 'probe', duration_s: 6 }, { timeoutMs }),
      },
    ];
    const faults: FaultWindow[] = [];
    let trickle: ReturnType<typeof startTrickle> | undefined;
    const inject = async (what: string, fault: () => Promise<FaultWindow>) => {
      say(what);
      const window = await fault();
      faults.push(window);
      say(`${window.dependency} back after ${((window.backAt - window.downAt) / 1000).toFixed(1)} s; waiting for a successful request`);
      await waitForRecovery(trickle!.outcomes, window);
      await sleep(SETTLE_MS);
    };
    const apiKills: { requests: CutOffRequests; pid: number | undefined }[] = [];
    const killApi = async (): Promise<FaultWindow> => {
      const knex = createKnex(stack.databaseUrl);
      try {
        const requests = await sendCutOffRequests({ apiUrl: stack.apiUrl, key, knex, organizationId: org.id, count: CUT_OFF_REQUESTS, runId: String(apiKills.length) });
        apiKills.push({ requests, pid: stack.apiPid() });
        return await stack.restartApi(API_OUTAGE_MS);
      } finally {
        await knex.destroy();
      }
    };
    const FAULTS = {
      api: () => inject(`SIGKILL the API with ${CUT_OFF_REQUESTS} sync images running, start another ${API_OUTAGE_MS / 1000} s later`, killApi),
      worker: () => inject(`SIGKILL the worker, start another ${WORKER_OUTAGE_MS / 1000} s later`, () => stack.restartWorker(WORKER_OUTAGE_MS)),
      temporal: () => inject(`stop Temporal for ${OUTAGE_MS / 1000} s, start it again on its database file`, () => stack.restartTemporal(OUTAGE_MS)),
      postgres: () => inject(`stop Postgres for ${OUTAGE_MS / 1000} s, start it again on its data`, () => stack.restartPostgres(OUTAGE_MS)),
    };

    let workload: Workload;
    if (args.soak === undefined) {
      say(`submitting ${GENERATIONS} generations and ${COMPARISONS} comparisons`);
      const planned = interleave(planWorkload(GENERATIONS, imageUrl), planComparisons(COMPARISONS, imageUrl), COMPARISON_EVERY);
      const { submitted: accepted, rejected } = await submitWorkload(stack.apiUrl, key, planned, 16);
      const submitted = accepted.filter((s): s is Submitted<PlannedGeneration> => s.kind === 'generation');
      const comparisons = accepted.filter((s): s is Submitted<PlannedComparison> => s.kind === 'comparison');
      say(
        `${submitted.length} generations accepted (${submitted.filter((s) => s.answeredStatus === 'queued' || s.answeredStatus === 'running').length} still running), ` +
          `${comparisons.length} comparisons`,
      );
      trickle = startTrickle(probes, { everyMs: 200, timeoutMs: PROBE_TIMEOUT_MS, maxDurationMs: 10 * 60_000 });
      await sleep(SETTLE_MS);
      const terminated = await terminateComparisons(stack.temporalAddress, comparisons, TERMINATED_COMPARISONS);
      say(`terminated the workflows of comparisons ${terminated.join(', ')}`);
      const toCancel = submitted.filter((s) => s.cancel).map((s) => s.id);
      const cancelling = cancelSpread(stack.apiUrl, key, toCancel, 1_500, 90_000);
      // Fewer, so further apart: they land through all three faults.
      const comparisonsToCancel = comparisons.filter((c) => c.cancel).map((c) => c.id);
      const cancellingComparisons = cancelSpread(stack.apiUrl, key, comparisonsToCancel, 5_000, 90_000, 'comparisons');
      await FAULTS.api();
      await FAULTS.worker();
      await FAULTS.temporal();
      await FAULTS.postgres();
      workload = {
        headline: `npm run chaos: ${submitted.length} of ${GENERATIONS} workload generations and ${comparisons.length} of ${COMPARISONS} comparisons accepted before the faults`,
        submitted,
        comparisons,
        cancels: await cancelling,
        comparisonCancels: await cancellingComparisons,
        otherAnswers: [],
        terminated,
        violations: rejected.map((r) => `workload request refused before any fault: ${r}`),
      };
    } else {
      say(`soak: ${args.soak} randomized operations, ${SOAK_CONCURRENCY} at a time, faults at random times (seed ${args.seed})`);
      const random = seededRandom(args.seed);
      trickle = startTrickle(probes, { everyMs: 200, timeoutMs: PROBE_TIMEOUT_MS, maxDurationMs: 24 * 60 * 60_000 });
      let soaking = true;
      const soak = runSoak({ apiUrl: stack.apiUrl, key, imageUrl, operations: args.soak, concurrency: SOAK_CONCURRENCY, random }).finally(() => (soaking = false));
      // The first fault soon (the stream has work in flight by then), the next ones 5 to 30 s apart.
      const faultsAtRandom = (async () => {
        for (let wait = 8_000 + random() * 10_000; ; wait = 5_000 + random() * 25_000) {
          const until = Date.now() + wait;
          while (soaking && Date.now() < until) await sleep(250);
          if (!soaking) return;
          const kinds = Object.keys(FAULTS) as (keyof typeof FAULTS)[];
          await FAULTS[kinds[Math.floor(random() * kinds.length)]!]();
        }
      })();
      const soaked = await soak;
      await faultsAtRandom;
      workload = {
        headline:
          `npm run chaos -- --soak ${args.soak} --seed ${args.seed}: operations ${JSON.stringify(soaked.operations)}; ` +
          `${soaked.generations.length} generations and ${soaked.comparisons.length} comparisons created, ${faults.length} faults`,
        submitted: soaked.generations,
        comparisons: soaked.comparisons,
        cancels: soaked.cancels,
        comparisonCancels: soaked.comparisonCancels,
        otherAnswers: soaked.creations,
        terminated: [],
        violations: soaked.violations,
      };
    }
    violations.push(...workload.violations);
    const { submitted, comparisons, cancels, comparisonCancels, terminated } = workload;

    const outcomes = await trickle.stop();
    const cutOff = (await Promise.all(apiKills.map((k) => k.requests.answers))).flat();
    const answers = [...outcomes, ...[...cancels, ...comparisonCancels].flatMap((c) => c.attempts), ...workload.otherAnswers, ...cutOff];
    violations.push(...answerViolations(answers, faults, t0));
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
      const probeIds = outcomes.flatMap((o) => ((o.probe === 'image' || o.probe === 'video') && o.id ? [o.id] : []));
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
      say('retrying each request the API kill cut off with its Idempotency-Key');
      const retries: ProbeOutcome[] = [];
      const kills: CutOffFigures[] = [];
      for (const kill of apiKills) {
        const checked = await checkCutOffRequests({ knex, temporal, apiUrl: stack.apiUrl, key, requests: kill.requests, killedApiPid: kill.pid, retries });
        violations.push(...checked.violations);
        kills.push(checked.figures);
      }
      violations.push(...answerViolations(retries, faults, t0).map((v) => `api kill retries: ${v}`));
      say('checking planned outcomes, and Σ charged against what the API returns');
      const { views, errors: viewErrors } = await fetchApiViews(
        stack.apiUrl,
        key,
        outcome.rows.map((r) => r.id),
      );
      violations.push(...viewErrors.map((e) => `api: ${e}`));
      const planned = plannedOutcomeViolations({
        views,
        generations: submitted,
        plain: [input.id as string, ...probeIds],
        cancels,
        comparisons,
        comparisonRows: compared.rows,
        comparisonCancels,
      });
      violations.push(...planned.map((v) => `planned: ${v}`));
      const charged = await chargedAgainstLedger(knex, org.id, views);
      violations.push(...charged.violations.map((v) => `money: ${v}`));
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
      const coverage = await faultCoverage(knex, org.id, faults, answers);
      // A fault that hit nothing tested nothing: the run is void, whatever else it found.
      for (const reason of voidReasons(coverage, args.soak === undefined ? MIN_IN_FLIGHT : MIN_IN_FLIGHT_SOAK)) errors.unexpected('fault coverage', reason);
      console.log(
        formatSummary({
          headline: workload.headline,
          submitted,
          probeIds,
          rows: outcome.rows,
          notTerminal: open,
          drainedMs,
          cancels,
          wallet: await getWalletBalance(knex, org.id),
          ledger: await sumLedger(knex, org.id),
          moneyViolations: money,
          answers,
          faults,
          recovered,
          probes: PROBES,
          otherRequests: workload.otherAnswers.length > 0 ? ['create'] : [],
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
      console.log(
        `planned outcomes (generations and comparison children by their directives, comparisons' verdicts): ${planned.length} violations\n` +
          `Σ charged: ledger ${charged.ledgerTotal}, API ${charged.apiTotal}: ${charged.violations.length === 0 ? 'equal' : 'NOT EQUAL'}\n` +
          `faults (each must find ≥ ${args.soak === undefined ? MIN_IN_FLIGHT : MIN_IN_FLIGHT_SOAK} generations in flight and produce ≥ 1 503, within it or ${FAULT_GRACE_MS / 1000} s after):\n` +
          coverage
            .map(
              (c) =>
                `  ${c.fault.dependency}: down ${((c.fault.backAt - c.fault.downAt) / 1000).toFixed(1)} s, ${c.inFlight} generations in flight, ` +
                (c.fault.dependency === 'api' ? `${c.cutOff} requests cut off` : `${c.unavailable} 503s`),
            )
            .join('\n') +
          kills
            .map(
              (k) =>
                `\nAPI kill: ${k.cutOff} of ${CUT_OFF_REQUESTS} sync images cut off; ${k.handedOver} of their jobs ran on the killed API's own worker and were finished by another`,
            )
            .join(''),
      );
      const byStatus = (status: string) => outcome.rows.filter((r) => r.status === status).length;
      return {
        targets: [
          {
            name: 'violations (answers, planned outcomes, money, comparisons, webhooks, recovery)',
            target: 'none',
            result: String(violations.length),
            pass: violations.length === 0,
          },
        ],
        figures: {
          mode: args.soak === undefined ? 'standard' : 'soak',
          ...(args.soak !== undefined && { operations: args.soak, seed: args.seed }),
          generations: outcome.rows.length,
          succeeded: byStatus('succeeded'),
          failed: byStatus('failed'),
          canceled: byStatus('canceled'),
          comparisons: compared.rows.length,
          faults: coverage.map((c) => ({
            dependency: c.fault.dependency,
            downMs: c.fault.backAt - c.fault.downAt,
            inFlight: c.inFlight,
            unavailable503: c.unavailable,
            cutOff: c.cutOff,
            recoveryMs: recovered.find((r) => r.fault === c.fault)?.worstMs ?? null,
          })),
          chargedLedger: charged.ledgerTotal,
          chargedApi: charged.apiTotal,
          apiKills: kills,
          embeddedWorker: process.env.API_EMBEDDED_WORKER !== 'false',
          webhooks: { events: f.events, deliveries: f.deliveries, attempts: f.attempts, extraRequests: f.extraRequests },
          totalMs: Date.now() - t0,
          violations: violations.slice(0, 100),
        },
        notes: [
          args.soak === undefined
            ? `standard run: ${GENERATIONS} generations, ${COMPARISONS} comparisons; API killed and away ${API_OUTAGE_MS / 1000} s, worker away ${WORKER_OUTAGE_MS / 1000} s, Temporal and Postgres ${OUTAGE_MS / 1000} s each`
            : `soak: ${args.soak} operations, seed ${args.seed} (npm run chaos -- --soak ${args.soak} --seed ${args.seed} replays its choices)`,
          'embedded stack (Temporal dev server, embedded Postgres), the API and the worker as their own processes, live keys paying on the provider doubles',
          `a 503 is right only for a request in flight while a dependency was down or within ${FAULT_GRACE_MS / 1000} s after it came back; ` +
            `each fault must find ≥ ${args.soak === undefined ? MIN_IN_FLIGHT : MIN_IN_FLIGHT_SOAK} generations in flight and produce ≥ 1 503, else the run is void`,
        ],
      };
    } finally {
      await connection.close();
      await knex.destroy();
    }
  } finally {
    keep ||= violations.length > 0 || errors.seen.length > 0;
    await receiver.close();
    await stack.stop(keep);
    if (keep) console.log(`logs (logs/api.log, logs/worker.log) and data kept in ${stack.dir}; rm -rf it when done`);
  }
}

let args: { soak?: number; seed: number };
try {
  args = parseArgs(process.argv.slice(2));
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
// A soak's result is its own file (bench/results/chaos-soak.json), so it never stands in the table for the standard run.
if (args.soak === undefined) runBenchmark('chaos', (errors) => main(args, errors));
else runBenchmark('chaos-soak', (errors) => main(args, errors), { command: `npm run chaos -- --soak ${args.soak} --seed ${args.seed}` });
