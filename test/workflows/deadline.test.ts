import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createRealAdapters } from '../../activities/providers/real-adapters';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { startFakeFal, type FakeFal } from '../fakes/fal-server';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { ledgerKinds } from '../helpers/ledger';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { killHard, spawnWorkerProcess } from '../helpers/service-process';
import { stack, startExtraApi } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// Deadlines (issue 42): a creation request's `Cancel-After` is a durable timer in the generation's
// workflow (workflows/generation-deadline.ts). A job not started by then ends canceled with
// `deadline_exceeded`, uncharged; one running then is stopped at the provider and refunded; a
// worker that dies while the timer waits leaves it to the next. Through the API and real workers.

describe('Cancel-After deadlines', function () {
  this.timeout(180_000);
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  /** A generation finished, canceled by its deadline, with nothing charged. */
  async function assertCanceledByDeadline(id: string, key: string) {
    const gen = await waitForGeneration(id, key, ['succeeded', 'failed', 'canceled'], 60_000);
    assert.equal(gen.status, 'canceled', JSON.stringify(gen));
    assert.equal(gen.error_code, 'deadline_exceeded');
    assert.match(gen.error_message, /Cancel-After/);
    assert.deepEqual([gen.charged_credits, gen.refunded_credits], [0, gen.reserved_credits]);
    assert.ok(gen.reserved_credits > 0);
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'refund']);
    return gen;
  }

  it('a job queued behind another until its deadline ends canceled, deadline_exceeded, without calling the provider or charging', async () => {
    const queue = `deadline-one-slot-${Date.now()}`;
    const worker = await startTestWorker(queue, { maxConcurrentActivityTaskExecutions: 1 });
    closers.push(() => worker.stop());
    const api = await startExtraApi({ taskQueue: queue, syncTimeoutMs: 0 });
    closers.push(api.close);
    const org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
    const first = await call('POST', '/v1/videos', { key: org.liveKey, baseUrl: api.url, body: { model: 'hailuo-02', prompt: 'holds the slot #slow:15000', duration_s: 6 } });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    await waitFor(async () => (await stack().repos.generations.findById(first.body.id))?.status === 'running', 20_000, 'the first job to hold the slot');

    const second = await call('POST', '/v1/videos', {
      key: org.liveKey,
      baseUrl: api.url,
      headers: { 'Cancel-After': '2s' },
      body: { model: 'hailuo-02', prompt: 'never starts', duration_s: 6 },
    });
    assert.equal(second.status, 202, JSON.stringify(second.body));
    const deadlineMs = Date.parse(second.body.deadline_at);
    assert.ok(Math.abs(deadlineMs - (Date.parse(second.body.created_at) + 2_000)) < 1_500, `deadline_at ${second.body.deadline_at}`);

    const gen = await assertCanceledByDeadline(second.body.id, org.liveKey);
    assert.deepEqual(gen.attempts, [], 'no provider call was made');
    assert.ok(Date.parse(gen.finished_at) >= deadlineMs - 50, 'not before its deadline');
    // The first, without a deadline, is untouched by the second's.
    const firstDone = await waitForGeneration(first.body.id, org.liveKey, ['succeeded', 'failed', 'canceled'], 60_000);
    assert.equal(firstDone.status, 'succeeded');
    assert.equal(firstDone.deadline_at, null);
    await assertMoneyInvariants(org.id);
  });

  it('a job admitted only after its deadline (no worker until then) is canceled without calling the provider', async () => {
    const queue = `deadline-late-${Date.now()}`;
    const api = await startExtraApi({ taskQueue: queue, syncTimeoutMs: 0, admissionTimeoutMs: 20_000 });
    closers.push(api.close);
    const org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
    const sent = Date.now();
    const answer = call('POST', '/v1/videos', {
      key: org.liveKey,
      baseUrl: api.url,
      headers: { 'Cancel-After': '1s' },
      body: { model: 'hailuo-02', prompt: 'admitted late', duration_s: 6 },
    });
    // No worker polls the queue until the deadline has passed.
    await waitFor(async () => Date.now() > sent + 1_500, 5_000, 'the deadline to pass');
    const worker = await startTestWorker(queue);
    closers.push(() => worker.stop());
    const res = await answer;
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const gen = await assertCanceledByDeadline(res.body.id, org.liveKey);
    assert.deepEqual(gen.attempts, [], 'no provider call was made');
    await assertMoneyInvariants(org.id);
  });

  it('a job running at its deadline is cancelled at the provider (fal) and refunded', async () => {
    const fal: FakeFal = await startFakeFal();
    closers.push(() => fal.close());
    const queue = `deadline-fal-${Date.now()}`;
    const providers = createProviderRegistry({
      simulator: createSimulator({ asyncLatencyMs: 300 }),
      adapters: createRealAdapters({ requestTimeoutMs: 30_000 }),
      platformCredentials: { fal: { apiKey: fal.apiKey, baseUrl: fal.baseUrl } },
      providerMode: 'live',
    });
    const worker = await startTestWorker(queue, { providers });
    closers.push(() => worker.stop());
    const api = await startExtraApi({ taskQueue: queue, syncTimeoutMs: 0, routing: { providerMode: 'live', configuredProviders: ['fal'] } });
    closers.push(api.close);
    const org = await createOrganization({ plan: 'studio', credits: 10_000_000 });

    fal.script.slowJob(60_000);
    const prompt = 'stopped by its deadline';
    const res = await call('POST', '/v1/videos', { key: org.liveKey, baseUrl: api.url, headers: { 'Cancel-After': '4s' }, body: { model: 'hailuo-02', duration_s: 6, prompt } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const { requestId } = await waitFor(
      async () => fal.received.find((r) => r.operation === 'submit' && (r.body as { prompt?: string } | undefined)?.prompt === prompt),
      20_000,
      'fal to receive the job',
    );
    await assertCanceledByDeadline(res.body.id, org.liveKey);
    await waitFor(async () => fal.cancelled.includes(requestId!), 20_000, "fal's job to be cancelled");
    await assertMoneyInvariants(org.id);
  });

  it('a sync request whose running job its deadline stops within the sync window is answered 200 with the canceled generation', async () => {
    // A sync job is one local activity inside a workflow task: the deadline's timer reaches it at
    // the task's next heartbeat (docs/api.md), so the window here is longer than that.
    const api = await startExtraApi({ syncTimeoutMs: 35_000 });
    closers.push(api.close);
    const org = await createOrganization({ credits: 100_000 });
    const started = Date.now();
    const res = await call('POST', '/v1/images', {
      key: org.liveKey,
      baseUrl: api.url,
      headers: { 'Cancel-After': '1s' },
      body: { model: 'flux-dev', prompt: 'too slow #slow:60000' },
    });
    assert.ok(Date.now() - started < 35_000, 'answered when the job ended, not at the end of the window');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'canceled');
    assert.equal(res.body.error_code, 'deadline_exceeded');
    assert.deepEqual([res.body.charged_credits, res.body.refunded_credits], [0, res.body.reserved_credits]);
    await assertMoneyInvariants(org.id);
  });

  it('a worker killed while the deadline timer waits: the next worker ends the job on time', async () => {
    const queue = `deadline-crash-${Date.now()}`;
    const children: ChildProcess[] = [];
    closers.push(async () => {
      for (const child of children) await killHard(child);
    });
    const first = await spawnWorkerProcess(queue);
    children.push(first);
    const api = await startExtraApi({ taskQueue: queue, syncTimeoutMs: 0 });
    closers.push(api.close);
    const org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
    const res = await call('POST', '/v1/videos', {
      key: org.liveKey,
      baseUrl: api.url,
      headers: { 'Cancel-After': '6s' },
      body: { model: 'hailuo-02', prompt: 'outlives its worker #slow:60000', duration_s: 6 },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id: string = res.body.id;
    await waitFor(async () => (await stack().repos.generations.findById(id))?.status === 'running', 20_000, 'the job to start');
    await killHard(first);
    const second = await spawnWorkerProcess(queue);
    children.push(second);

    const gen = await assertCanceledByDeadline(id, org.liveKey);
    const lateMs = Date.parse(gen.finished_at) - Date.parse(gen.deadline_at);
    // The timer is Temporal's: it fires at the deadline, and the next worker takes the workflow
    // task once the dead worker's sticky queue gives it up (about 10 s).
    assert.ok(lateMs >= -50 && lateMs < 25_000, `ended ${lateMs} ms after its deadline`);
    await assertMoneyInvariants(org.id);
  });

  it("a comparison's deadline cancels every model still running then, each refunded", async () => {
    const org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
    const res = await call('POST', '/v1/comparisons', {
      key: org.liveKey,
      headers: { 'Cancel-After': '3s' },
      body: { models: ['hailuo-02', 'kling-2.1-master'], prompt: 'a slow pan #slow:30000', params_shared: { duration_s: 10 } },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitFor(
      async () => {
        const cmp = (await call('GET', `/v1/comparisons/${res.body.id}`, { key: org.liveKey })).body;
        return ['succeeded', 'partial', 'failed', 'canceled'].includes(cmp.status) ? cmp : undefined;
      },
      60_000,
      'the comparison to end',
    );
    assert.equal(done.deadline_at, res.body.deadline_at);
    assert.equal(done.charged_credits, 0);
    assert.equal(done.refunded_credits, done.reserved_credits);
    for (const child of done.generations) await assertCanceledByDeadline(child.id, org.liveKey);
    await assertMoneyInvariants(org.id);
  });

  describe('a bad Cancel-After', () => {
    for (const [value, why] of [
      ['5x', /whole number of seconds, minutes or hours/],
      ['0s', /whole number/],
      ['1.5m', /whole number/],
      ['', /whole number/],
      ['11m', /at most 10m/],
      ['2h', /at most 10m/],
    ] as const) {
      it(`"${value}" on a sync endpoint is 400 validation_failed naming the header, nothing reserved`, async () => {
        const org = await createOrganization({ credits: 1000 });
        const res = await call('POST', '/v1/images', { key: org.liveKey, headers: { 'Cancel-After': value }, body: { model: 'flux-dev', prompt: 'a cat' } });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'validation_failed');
        assert.equal(res.body.error.param, 'Cancel-After');
        assert.match(res.body.error.message, /Cancel-After/);
        assert.match(res.body.error.message, why);
        assert.equal((await stack().knex('generations').where({ organization_id: org.id })).length, 0);
        assert.deepEqual(await assertMoneyInvariants(org.id), { availableCredits: 1000, reservedCredits: 0 });
      });
    }

    it('an async endpoint allows up to its own provider budget (1h), not more', async () => {
      const org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
      const tooLong = await call('POST', '/v1/videos', { key: org.liveKey, headers: { 'Cancel-After': '61m' }, body: { model: 'hailuo-02', prompt: 'waves', duration_s: 6 } });
      assert.equal(tooLong.status, 400, JSON.stringify(tooLong.body));
      assert.match(tooLong.body.error.message, /at most 1h/);
      const ok = await call('POST', '/v1/videos', { key: org.liveKey, headers: { 'Cancel-After': '1h' }, body: { model: 'hailuo-02', prompt: 'waves', duration_s: 6 } });
      assert.equal(ok.status, 202, JSON.stringify(ok.body));
      assert.ok(ok.body.deadline_at);
      assert.equal((await waitForGeneration(ok.body.id, org.liveKey, undefined, 60_000)).status, 'succeeded');
      await assertMoneyInvariants(org.id);
    });

    it('a comparison refuses it before reserving, and carries a good one to every model', async () => {
      const org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
      const body = { models: ['flux-dev', 'flux-schnell'], prompt: 'a fox' };
      const bad = await call('POST', '/v1/comparisons', { key: org.liveKey, headers: { 'Cancel-After': '1d' }, body });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal(bad.body.error.param, 'Cancel-After');
      assert.equal((await stack().knex('comparisons').where({ organization_id: org.id })).length, 0);
      const good = await call('POST', '/v1/comparisons', { key: org.liveKey, headers: { 'Cancel-After': '5m' }, body });
      assert.equal(good.status, 202, JSON.stringify(good.body));
      assert.ok(good.body.deadline_at);
      const rows = await stack().knex('generations').where({ comparison_id: good.body.id });
      assert.equal(rows.length, 2);
      for (const row of rows) assert.equal(new Date(row.deadline_at).toISOString(), good.body.deadline_at);
      await waitFor(async () => (await call('GET', `/v1/comparisons/${good.body.id}`, { key: org.liveKey })).body.status !== 'queued', 60_000, 'the comparison to run');
      await assertMoneyInvariants(org.id);
    });
  });

  it('an Idempotency-Key replayed with another Cancel-After is 422 idempotency_key_reused; with the same one it replays', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const body = { model: 'flux-dev', prompt: 'a heron' };
    const first = await call('POST', '/v1/images', { key: org.liveKey, headers: { 'Idempotency-Key': 'deadline-1', 'Cancel-After': '5m' }, body });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const replay = await call('POST', '/v1/images', { key: org.liveKey, headers: { 'Idempotency-Key': 'deadline-1', 'Cancel-After': '5m' }, body });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.id, first.body.id);
    const other = await call('POST', '/v1/images', { key: org.liveKey, headers: { 'Idempotency-Key': 'deadline-1', 'Cancel-After': '6m' }, body });
    assert.equal(other.status, 422, JSON.stringify(other.body));
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    const none = await call('POST', '/v1/images', { key: org.liveKey, headers: { 'Idempotency-Key': 'deadline-1' }, body });
    assert.equal(none.status, 422, JSON.stringify(none.body));
    await assertMoneyInvariants(org.id);
  });
});
