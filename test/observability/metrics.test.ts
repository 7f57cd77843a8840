import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import type { GenerationInput, ProviderOutcome } from '../../workflows/definitions';
import { call, createOrganization, waitFor, type HttpResult } from '../helpers/http';
import { providerDoublesRegistry } from '../helpers/provider-doubles';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { temporalSdkMetricFamilies } from '../helpers/ops-files';
import { deltaBy, scrape, type Sample } from '../helpers/prometheus-text';
import { stack } from '../helpers/stack';
import { ANOMALY_DETECTOR_SCHEDULE_ID } from '../../worker/anomaly-detector-schedule';
import { RECONCILER_SCHEDULE_ID } from '../../worker/reconciler-schedule';
import { startHttpsServer } from '../helpers/tls';

// Prometheus metrics (docs/operations.md, "Metrics"): after a scripted run through the HTTP API
// (a success, a failure, a cancel refunded, a budget refusal, a webhook that fails once and then
// succeeds) the counters moved by exactly what happened. The stack's API and worker run in this
// process and share one registry with every other test, so the test compares scrapes taken before
// and after the run, once the stack has nothing left in flight.

const P = 'generation_service_';
const IMAGE = 'flux-schnell';
const SLOW_VIDEO = { model: 'hailuo-02', prompt: 'a long take #slow:600000', duration_s: 6 };

/** The HTTP requests the run made, as the API's counter labels them. */
type Expected = Record<string, number>;

/** A request through the public API, remembered under its route template, method, status and error code. */
function tracker() {
  const expected: Expected = {};
  return {
    expected,
    async call(method: string, route: string, path: string, opts: Parameters<typeof call>[2] = {}): Promise<HttpResult> {
      const res = await call(method, path, opts);
      const code = res.status >= 400 ? String(res.body?.error?.code ?? 'unknown') : '';
      const key = `error_code=${code},method=${method},route=${route},status=${res.status}`;
      expected[key] = (expected[key] ?? 0) + 1;
      return res;
    },
  };
}

/**
 * Waits until no generation or comparison workflow is running and no webhook delivery is due, so
 * nothing but this test moves the counters. A workflow some earlier test left running for minutes (a
 * `#slow` job it never cancelled) moves nothing in the window either: after 30 s the test goes ahead,
 * saying how many are open. Rows earlier tests left open with no workflow behind them are the
 * reconciler's, which `withoutSchedules` keeps from repairing them during the run.
 */
async function quiesce(): Promise<void> {
  const { knex, temporal } = stack();
  const open = async () => ({
    workflows: (await temporal.workflow.count("ExecutionStatus = 'Running' AND WorkflowType IN ('generationWorkflow', 'comparisonWorkflow')")).count,
    deliveries: (
      await knex('webhook_deliveries')
        .whereIn('status', ['pending', 'failed'])
        .where((q) => {
          q.whereNull('next_attempt_at').orWhere('next_attempt_at', '<', knex.raw("now() + interval '2 minutes'"));
        })
        .select('id')
    ).map((r: { id: string }) => r.id),
  });
  try {
    await waitFor(async () => {
      const now = await open();
      return now.workflows === 0 && now.deliveries.length === 0;
    }, 30_000);
  } catch {
    process.stderr.write(`  [metrics test] still open, assumed idle: ${JSON.stringify(await open())}\n`);
  }
}

/**
 * Runs `fn` with the reconciler's and the anomaly detector's Schedules paused and no run of theirs
 * open: a repair of another test's stranded rows would move the generation and credit counters.
 */
async function withoutSchedules<T>(fn: () => Promise<T>): Promise<T> {
  const { temporal } = stack();
  const schedules = [RECONCILER_SCHEDULE_ID, ANOMALY_DETECTOR_SCHEDULE_ID].map((id) => temporal.schedule.getHandle(id));
  for (const schedule of schedules) await schedule.pause('the metrics test counts exactly');
  try {
    await waitFor(
      async () => (await temporal.workflow.count("ExecutionStatus = 'Running' AND WorkflowType IN ('reconcilerWorkflow', 'anomalyDetectorWorkflow')")).count === 0,
      60_000,
      'the Schedules’ open runs to close',
    );
    return await fn();
  } finally {
    for (const schedule of schedules) await schedule.unpause();
  }
}

/** What the organization's ledger moved: reserved, charged, and released back (refunds and a capture's unused rest). */
async function ledgerSums(organizationId: string): Promise<{ reserved: number; charged: number; refunded: number }> {
  const rows: { kind: string; available_delta: string; reserved_delta: string }[] = await stack().knex('ledger_entries').where({ organization_id: organizationId });
  const sum = (kind: string, pick: (r: (typeof rows)[number]) => number) => rows.filter((r) => r.kind === kind).reduce((s, r) => s + pick(r), 0);
  return {
    reserved: sum('reserve', (r) => Number(r.reserved_delta)),
    charged: sum('capture', (r) => -Number(r.reserved_delta)),
    refunded: sum('refund', (r) => Number(r.available_delta)) + sum('release', (r) => Number(r.available_delta)),
  };
}

const total = (delta: Record<string, number>) => Object.values(delta).reduce((s, v) => s + v, 0);

describe('Prometheus metrics', function () {
  this.timeout(180_000);

  it('count exactly what a scripted run did: requests, admissions, generations, credits, provider attempts and webhook attempts', () =>
    withoutSchedules(async () => {
      const { metricsUrls } = stack();
      const org = await createOrganization({ plan: 'pro', credits: 100_000 });
      await quiesce();
      const before = { api: await scrape(metricsUrls.api), worker: await scrape(metricsUrls.worker) };
      const http = tracker();

      // A receiver that fails the first delivery and takes the retry, subscribed to successes only.
      const received: number[] = [];
      const receiver = await startHttpsServer(stack().receiverCertificate, (req, res) => {
        req.resume().on('end', () => {
          received.push(received.length === 0 ? 500 : 200);
          res.writeHead(received.at(-1)!).end();
        });
      });
      const ids: string[] = [];
      try {
        const hook = await http.call('POST', '/v1/webhooks', '/v1/webhooks', {
          key: org.liveKey,
          body: { url: `https://127.0.0.1:${receiver.port}/hook`, events: ['generation.completed'] },
        });
        assert.equal(hook.status, 201, JSON.stringify(hook.body));

        const success = await http.call('POST', '/v1/images', '/v1/images', { key: org.liveKey, body: { model: IMAGE, prompt: 'metrics: a lighthouse' } });
        assert.equal(success.status, 200, JSON.stringify(success.body));
        assert.equal(success.body.status, 'succeeded');
        const failure = await http.call('POST', '/v1/images', '/v1/images', { key: org.liveKey, body: { model: IMAGE, prompt: 'metrics: a storm #fail' } });
        assert.equal(failure.body.status, 'failed', JSON.stringify(failure.body));

        const video = await http.call('POST', '/v1/videos', '/v1/videos', { key: org.liveKey, body: SLOW_VIDEO });
        assert.equal(video.status, 202, JSON.stringify(video.body));
        const canceled = await http.call('POST', '/v1/generations/:id/cancel', `/v1/generations/${video.body.id}/cancel`, { key: org.liveKey });
        assert.equal(canceled.body.status, 'canceled', JSON.stringify(canceled.body));
        ids.push(success.body.id, failure.body.id, video.body.id);

        const budgeted = await http.call('POST', '/v1/api-keys', '/v1/api-keys', { key: org.liveKey, body: { name: 'tiny budget', monthly_budget_usd: 0 } });
        assert.equal(budgeted.status, 201, JSON.stringify(budgeted.body));
        const refused = await http.call('POST', '/v1/images', '/v1/images', { key: budgeted.body.secret, body: { model: IMAGE, prompt: 'metrics: over budget' } });
        assert.equal(refused.status, 402, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'budget_exceeded');

        // The public port never serves metrics.
        const publicMetrics = await http.call('GET', 'unmatched', '/metrics');
        assert.equal(publicMetrics.status, 404);

        await waitFor(
          async () => {
            const res = await http.call('GET', '/v1/webhooks/:id/deliveries', `/v1/webhooks/${hook.body.id}/deliveries`, { key: org.liveKey });
            return res.body.data[0]?.status === 'succeeded';
          },
          30_000,
          'the retried delivery to succeed',
        );
        assert.deepEqual(received, [500, 200]);
      } finally {
        await receiver.close();
      }
      // Each generation's provenance, read through the API: the provider calls it made.
      const generations: { modality: string; model: string; status: string; attempts: { provider: string; outcome: string }[] }[] = [];
      for (const id of ids) generations.push((await http.call('GET', '/v1/generations/:id', `/v1/generations/${id}`, { key: org.liveKey })).body);
      await quiesce();
      const after = { api: await scrape(metricsUrls.api), worker: await scrape(metricsUrls.worker) };
      // One process, one registry: what the API counted and what the worker counted are both in each scrape.
      const delta = (name: string, by?: string[]) => {
        const [fromApi, fromWorker] = [deltaBy(before.api, after.api, P + name, by), deltaBy(before.worker, after.worker, P + name, by)];
        assert.deepEqual(fromApi, fromWorker, `${name}: both endpoints serve the same registry here`);
        return fromApi;
      };

      assert.deepEqual(delta('http_requests_total'), http.expected);
      assert.equal(total(delta('http_request_duration_seconds_count')), total(http.expected));
      assert.deepEqual(delta('admissions_total'), {
        'kind=generation,modality=image,outcome=admitted': 2,
        'kind=generation,modality=image,outcome=budget_exceeded': 1,
        'kind=generation,modality=video,outcome=admitted': 1,
      });
      assert.deepEqual(delta('generations_finished_total', ['modality', 'status']), {
        'modality=image,status=succeeded': 1,
        'modality=image,status=failed': 1,
        'modality=video,status=canceled': 1,
      });
      // The provider that served or last ran each job (the API shows it only for a success).
      const rows: { id: string; provider: string | null }[] = await stack().knex('generations').whereIn('id', ids).select('id', 'provider');
      const finishedBy = Object.fromEntries(
        generations.map((g, i) => {
          const provider = rows.find((r) => r.id === ids[i])?.provider ?? g.attempts.at(-1)?.provider ?? 'none';
          return [`model=${g.model},provider=${provider},status=${g.status}`, 1];
        }),
      );
      assert.deepEqual(delta('generations_finished_total', ['model', 'provider', 'status']), finishedBy);
      assert.equal(total(delta('generation_duration_seconds_count')), 3);

      const attempts: Record<string, number> = {};
      for (const g of generations) {
        for (const a of g.attempts) {
          const key = `modality=${g.modality},outcome=${a.outcome},provider=${a.provider}`;
          attempts[key] = (attempts[key] ?? 0) + 1;
        }
      }
      assert.deepEqual(delta('provider_attempts_total'), attempts);
      const fallbacks: Record<string, number> = {};
      for (const g of generations) {
        g.attempts.forEach((a, i) => {
          const previous = g.attempts[i - 1];
          if (!previous || previous.provider === a.provider) return;
          const key = `from_provider=${previous.provider},modality=${g.modality},to_provider=${a.provider}`;
          fallbacks[key] = (fallbacks[key] ?? 0) + 1;
        });
      }
      assert.deepEqual(delta('provider_fallbacks_total'), fallbacks);
      // Only the success stored outputs.
      assert.equal(total(delta('generation_ingest_seconds_count')), 1);

      const ledger = await ledgerSums(org.id);
      assert.ok(ledger.reserved > 0 && ledger.charged > 0 && ledger.refunded > 0, JSON.stringify(ledger));
      assert.equal(total(delta('credits_reserved_total')), ledger.reserved);
      assert.equal(total(delta('credits_charged_total')), ledger.charged);
      assert.equal(total(delta('credits_refunded_total')), ledger.refunded);

      assert.deepEqual(delta('webhook_attempts_total'), { 'outcome=http_error': 1, 'outcome=delivered': 1 });
      assert.deepEqual(delta('webhook_deliveries_total'), { 'outcome=delivered': 1 });
      assert.equal(total(delta('webhook_delivery_latency_seconds_count')), 1);
      assert.deepEqual(delta('rate_limit_refusals_total'), {});
      assert.deepEqual(delta('dependency_unavailable_total'), {});
      assert.deepEqual(delta('reconciler_repairs_total'), {});
      await assertMoneyInvariants(org.id);
    }));

  it('counts nothing more when a settled step runs again: a retried reservation, capture, refund or webhook record', async () => {
    const { metricsUrls, apiDeps } = stack();
    const org = await createOrganization({ credits: 10_000 });
    // The money steps' organization has no webhook: its generations' events send nothing.
    const spender = await createOrganization({ credits: 10_000 });
    const key = await stack().knex('api_keys').where({ organization_id: spender.id, environment: 'live' }).first('id');
    const activities = createActivities({
      knex: stack().knex,
      repos: stack().repos,
      storage: apiDeps.storage,
      providers: providerDoublesRegistry(),
      webhooks: apiDeps.webhooks!,
    });
    const input = (): GenerationInput => ({
      generationId: newId('gen'),
      organizationId: spender.id,
      apiKeyId: key.id,
      environment: 'live',
      modality: 'music',
      model: 'minimax-music-v2',
      prompt: 'twice',
      params: {},
      estimatedCredits: 100,
      timeouts: DEFAULT_GENERATION_TIMEOUTS,
      plan: 'pro',
      admitBy: Date.now() + 60_000,
    });
    // A delivered webhook, through the API, whose first attempt's record is then written again.
    const received: number[] = [];
    const receiver = await startHttpsServer(stack().receiverCertificate, (req, res) => req.resume().on('end', () => res.writeHead(received.push(200) && 200).end()));
    let deliveryId: string;
    try {
      const hook = await call('POST', '/v1/webhooks', { key: org.liveKey, body: { url: `https://127.0.0.1:${receiver.port}/hook`, events: ['generation.completed'] } });
      await call('POST', '/v1/images', { key: org.liveKey, body: { model: IMAGE, prompt: 'metrics: delivered once' } });
      deliveryId = await waitFor(async () => {
        const res = await call('GET', `/v1/webhooks/${hook.body.id}/deliveries`, { key: org.liveKey });
        return res.body.data[0]?.status === 'succeeded' ? (res.body.data[0].id as string) : undefined;
      });
    } finally {
      await receiver.close();
    }
    await quiesce();
    const before = await scrape(metricsUrls.worker);

    const env = new MockActivityEnvironment();
    const [captured, refunded] = [input(), input()];
    for (const gen of [captured, refunded]) {
      assert.deepEqual(await env.run(activities.reserveCredits, gen), { admitted: true });
      assert.deepEqual(await env.run(activities.reserveCredits, gen), { admitted: true }, 'a retry finds it admitted');
    }
    const outcome: ProviderOutcome = { outputs: [], served: { provider: 'simulator', model: 'minimax-music-v2' } };
    await env.run(activities.captureCredits, { input: captured, outcome });
    await env.run(activities.captureCredits, { input: captured, outcome });
    await env.run(activities.refundCredits, { generationId: refunded.generationId, status: 'failed' as const });
    await env.run(activities.refundCredits, { generationId: refunded.generationId, status: 'failed' as const });
    await env.run(activities.refundCredits, { generationId: captured.generationId, status: 'canceled' as const });
    const result = { delivered: true, statusCode: 200, latencyMs: 5, error: null, responseBody: '' };
    assert.equal(await env.run(activities.recordWebhookAttempt, { deliveryId, number: 1, result, nextGapMs: 1_000 }), 'succeeded');

    const after = await scrape(metricsUrls.worker);
    const charged = (await stack().knex('generations').where({ id: captured.generationId }).first('charged_credits')).charged_credits as number;
    assert.deepEqual(deltaBy(before, after, `${P}credits_reserved_total`), { 'environment=live,modality=music': 200 });
    assert.deepEqual(deltaBy(before, after, `${P}credits_charged_total`), charged > 0 ? { 'environment=live,modality=music': charged } : {});
    assert.equal(total(deltaBy(before, after, `${P}credits_refunded_total`)), 200 - charged);
    assert.deepEqual(deltaBy(before, after, `${P}generations_finished_total`, ['status']), { 'status=succeeded': 1, 'status=failed': 1 });
    assert.deepEqual(deltaBy(before, after, `${P}webhook_attempts_total`), {});
    assert.deepEqual(deltaBy(before, after, `${P}webhook_deliveries_total`), {});
    await assertMoneyInvariants(spender.id);
  });

  it("serves the Temporal SDK core's metrics beside ours on the worker's port, and no label value is an id", async () => {
    const { metricsUrls } = stack();
    const [api, worker] = [await scrape(metricsUrls.api), await scrape(metricsUrls.worker)];
    const names = new Set(worker.map((s) => s.name));
    assert.ok(
      [...names].some((n) => /^temporal_workflow_task_schedule_to_start_latency/.test(n)),
      `a workflow task schedule-to-start metric, among ${[...names].filter((n) => n.startsWith('temporal_')).join(', ')}`,
    );
    assert.ok(names.has('temporal_worker_task_slots_available'), 'slot metrics');
    // The dashboards and alerts may name only the SDK families listed in ops/temporal-sdk-metrics.txt
    // (found by a probe): every family this worker exports must be there, under the listed type.
    const listed = new Map(temporalSdkMetricFamilies().map((f) => [f.name, f.type]));
    const familyOf = (name: string) => (listed.has(name) ? name : name.replace(/_(bucket|sum|count)$/, ''));
    const exported = new Set([...names].filter((n) => n.startsWith('temporal_')).map(familyOf));
    assert.deepEqual(
      [...exported].filter((family) => !listed.has(family)),
      [],
      'SDK metric families the worker exports but ops/temporal-sdk-metrics.txt does not list',
    );
    for (const family of exported) {
      const histogram = names.has(`${family}_bucket`);
      assert.equal(listed.get(family) === 'histogram', histogram, `${family} is listed as a ${listed.get(family)}`);
    }
    assert.ok(names.has(`${P}http_requests_total`), 'ours too, in the same answer');
    assert.ok(!api.some((s) => s.name.startsWith('temporal_')), "the API's endpoint has no worker to report on");
    const ids = /^(gen|cmp|out|whk|evt|dlv|key|upl|org|usr|req|led|inp)_[0-9A-Za-z]{6,}/;
    const withIds = [...api, ...worker].filter((s: Sample) => Object.values(s.labels).some((v) => ids.test(v)));
    assert.deepEqual(withIds, []);
  });
});
