import assert from 'node:assert/strict';
import { createRealAdapters } from '../../activities/providers/real-adapters';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { startFakeFal, type FakeFal } from '../fakes/fal-server';
import { call, createOrganization, waitFor, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack, startExtraApi } from '../helpers/stack';
import { startPostgresProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { startTestWorker } from '../helpers/test-worker';

// fal takes no idempotency key: a job it accepted is known to the step that submitted it alone
// until the row records it. When the worker's database is down at that moment for longer than the
// step waits (activities/submission.ts), the job is cancelled at fal before the step fails, so
// the step's next try never runs a second paid job beside a first one nobody knows of. Through the
// API, the generation workflow and the fal adapter against fal's fake, with the worker's database
// behind a proxy the test cuts off.

describe('a provider job accepted while the worker cannot reach its database', function () {
  this.timeout(120_000);
  let fal: FakeFal;
  let proxy: TcpProxy;
  let api: { url: string };
  let worker: { stop(): Promise<void> };
  let org: TestOrganization;

  before(async () => {
    fal = await startFakeFal();
    const proxied = await startPostgresProxy(stack().config.databaseUrl!);
    proxy = proxied.proxy;
    const providers = createProviderRegistry({
      simulator: createSimulator({ asyncLatencyMs: 300 }),
      adapters: createRealAdapters({ requestTimeoutMs: 30_000 }),
      platformCredentials: { fal: { apiKey: fal.apiKey, baseUrl: fal.baseUrl } },
      providerMode: 'live',
    });
    worker = await startTestWorker('test-provider-job-outage', {
      providers,
      databaseUrl: proxied.databaseUrl,
      recordJobPatienceMs: 1_000,
    });
    api = await startExtraApi({ taskQueue: 'test-provider-job-outage', routing: { providerMode: 'live', configuredProviders: ['fal'] } });
    org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
  });

  after(async () => {
    await proxy.restore();
    await worker.stop();
    await proxy.close();
    await fal.close();
  });

  it('is cancelled at fal, and the next try runs a job of its own to the end', async () => {
    let answer!: () => void;
    fal.script.holdSubmitAnswer(new Promise<void>((resolve) => (answer = resolve))).slowJob(60_000);
    const prompt = 'accepted during an outage';
    const res = await call('POST', '/v1/videos', { key: org.liveKey, baseUrl: api.url, body: { model: 'hailuo-02', duration_s: 6, prompt } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const submits = () => fal.received.filter((r) => r.operation === 'submit' && (r.body as { prompt?: string }).prompt === prompt);
    await waitFor(async () => submits().length === 1, 20_000, 'the submission');
    await proxy.refuse();
    answer();
    const first = submits()[0]!.requestId!;
    await waitFor(async () => fal.cancelled.includes(first), 20_000, 'the unrecorded job to be cancelled at fal');
    await proxy.restore();

    const gen = await waitForGeneration(res.body.id, org.liveKey, undefined, 60_000);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    assert.equal(gen.provider, 'fal');
    const [, second] = submits();
    assert.equal(submits().length, 2, 'one job more, submitted afresh');
    assert.ok(!fal.cancelled.includes(second!.requestId!), 'the second job ran to the end');
    const cancelAt = fal.received.findIndex((r) => r.operation === 'cancel' && r.requestId === first);
    assert.ok(cancelAt >= 0 && cancelAt < fal.received.indexOf(second!), 'the first job was cancelled before the second was submitted');
    const row = await stack().knex('generations').where({ id: res.body.id }).first();
    assert.equal(row.provider_job_id, second!.requestId);
    // Both calls are in its provenance: the first, whose end its step could not record, as failed on our side.
    const attempts = gen.attempts as { provider: string; outcome: string; error_code?: string }[];
    assert.deepEqual(
      attempts.map((a) => [a.provider, a.outcome, a.error_code]),
      [
        ['fal', 'failed', 'internal_error'],
        ['fal', 'succeeded', undefined],
      ],
      JSON.stringify(attempts),
    );
    await assertMoneyInvariants(org.id);
  });
});
