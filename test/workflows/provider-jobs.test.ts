import assert from 'node:assert/strict';
import { tsToMs } from '@temporalio/common/lib/time';
import { createRealAdapters } from '../../activities/providers/real-adapters';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { startFakeFal, type FakeFal } from '../fakes/fal-server';
import { call, createOrganization, waitFor, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack, startExtraApi } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// A provider job a generation gives up is cancelled at the provider, and a step run again resumes
// the job it queued instead of paying for a second one (issue 13: "an abandoned provider job is
// cancelled"; activities/generations/). Through the API, the generation workflow and the fal
// adapter against fal's fake; the API answers sync requests with 202 once reserved
// (SYNC_TIMEOUT_MS=0), so a sync job can be cancelled while its local activity runs.

describe('provider jobs a generation gives up', function () {
  this.timeout(120_000);
  let fal: FakeFal;
  let api: { url: string };
  let worker: { stop(): Promise<void> };
  let org: TestOrganization;

  before(async () => {
    fal = await startFakeFal();
    const providers = createProviderRegistry({
      simulator: createSimulator({ asyncLatencyMs: 300 }),
      // Longer than a sync job's workflow task takes to see a cancel (its heartbeat, about 8 s): a
      // held submission is still unanswered when the cancel reaches the workflow.
      adapters: createRealAdapters({ requestTimeoutMs: 30_000 }),
      platformCredentials: { fal: { apiKey: fal.apiKey, baseUrl: fal.baseUrl } },
      providerMode: 'live',
    });
    worker = await startTestWorker('test-provider-jobs', { providers });
    api = await startExtraApi({ taskQueue: 'test-provider-jobs', syncTimeoutMs: 0, routing: { providerMode: 'live', configuredProviders: ['fal'] } });
    org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
  });

  after(async () => {
    await worker.stop();
    await fal.close();
  });

  async function start(route: string, body: Record<string, unknown>): Promise<string> {
    const res = await call('POST', route, { key: org.liveKey, baseUrl: api.url, body });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.id;
  }

  const ended = (id: string) => waitForGeneration(id, org.liveKey, undefined, 60_000);
  /** The submit fal received for a prompt: the job fal queued for it. */
  const submitted = (prompt: string) =>
    waitFor(async () => fal.received.find((r) => r.operation === 'submit' && (r.body as { prompt?: string } | undefined)?.prompt === prompt), 20_000, `fal to receive "${prompt}"`);

  async function cancel(id: string) {
    const res = await call('POST', `/v1/generations/${id}/cancel`, { key: org.liveKey, baseUrl: api.url });
    // 202: still settling at the API's deadline (a sync job's workflow task sees a cancel late).
    assert.ok([200, 202].includes(res.status), JSON.stringify(res.body));
  }

  it('a sync job whose poll fails resumes the job fal queued instead of submitting a second one', async () => {
    fal.script.slowJob(1_500).fail(503, { on: 'status' });
    const id = await start('/v1/images', { model: 'flux-schnell', prompt: 'one paid job' });
    const gen = await ended(id);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    const submits = fal.received.filter((r) => r.operation === 'submit' && (r.body as { prompt?: string }).prompt === 'one paid job');
    assert.equal(submits.length, 1, 'one job submitted to fal');
    assert.deepEqual(
      gen.attempts.map((a: { outcome: string; error_code?: string }) => `${a.outcome}${a.error_code ? `:${a.error_code}` : ''}`),
      ['failed:provider_error', 'succeeded'],
    );
    assert.ok(!fal.cancelled.includes(submits[0]!.requestId!));
    await assertMoneyInvariants(org.id);
  });

  it('a sync job cancelled while fal runs it is cancelled at fal', async () => {
    fal.script.slowJob(60_000);
    const id = await start('/v1/images', { model: 'flux-schnell', prompt: 'cancel me while polled' });
    const { requestId } = await submitted('cancel me while polled');
    await waitFor(async () => fal.received.some((r) => r.operation === 'status' && r.requestId === requestId), 20_000, 'a poll');
    await cancel(id);
    assert.equal((await ended(id)).status, 'canceled');
    await waitFor(async () => fal.cancelled.includes(requestId!), 20_000, "fal's job to be cancelled");
    await assertMoneyInvariants(org.id);
  });

  for (const [modality, route, body] of [
    ['an async', '/v1/videos', { model: 'hailuo-02', duration_s: 6 }],
    ['a sync', '/v1/images', { model: 'flux-schnell' }],
  ] as const) {
    it(`${modality} job cancelled while its submission is unanswered is cancelled at fal once the answer comes`, async () => {
      let answer!: () => void;
      fal.script.holdSubmitAnswer(new Promise<void>((resolve) => (answer = resolve))).slowJob(60_000);
      const prompt = `cancel ${modality} submission`;
      const id = await start(route, { ...body, prompt });
      const { requestId } = await submitted(prompt);
      await cancel(id);
      // The cancel and the refund do not wait on the submission.
      const gen = await ended(id);
      assert.deepEqual([gen.status, gen.refunded_credits], ['canceled', gen.reserved_credits]);
      assert.ok(!fal.cancelled.includes(requestId!));
      answer();
      await waitFor(async () => fal.cancelled.includes(requestId!), 20_000, "fal's job to be cancelled once its id is known");
      const row = await stack().knex('generations').where({ id }).first();
      assert.equal(row.provider_job_id, null, 'the job was never recorded on a route the generation had closed');
      await assertMoneyInvariants(org.id);
    });
  }

  /** The one pending activity of a generation's workflow, as Temporal describes it. */
  async function pendingActivity(id: string) {
    const { raw } = await stack().temporal.workflow.getHandle(id).describe();
    const [activity] = raw.pendingActivities ?? [];
    return (
      activity && {
        ...activity,
        startedMs: activity.lastStartedTime ? tsToMs(activity.lastStartedTime) : undefined,
        heartbeatMs: activity.lastHeartbeatTime ? tsToMs(activity.lastHeartbeatTime) : undefined,
      }
    );
  }

  it('a job younger than a third of its heartbeat timeout has sent Temporal no heartbeat', async () => {
    fal.script.slowJob(60_000);
    const prompt = 'no heartbeat yet';
    const id = await start('/v1/videos', { model: 'hailuo-02', duration_s: 6, prompt });
    const { requestId } = await submitted(prompt);
    // Submitted, recorded and polled: every step that used to heartbeat has run.
    await waitFor(async () => fal.received.some((r) => r.operation === 'status' && r.requestId === requestId), 20_000, 'a poll');
    const activity = await pendingActivity(id);
    assert.equal(activity?.activityType?.name, 'runProviderJob');
    const ageMs = Date.now() - activity!.startedMs!;
    assert.ok(ageMs < DEFAULT_GENERATION_TIMEOUTS.heartbeatTimeoutMs / 3, `the activity is ${ageMs} ms old`);
    assert.equal(activity!.heartbeatMs, undefined, 'no heartbeat recorded');
    await cancel(id);
    assert.equal((await ended(id)).status, 'canceled');
    await assertMoneyInvariants(org.id);
  });

  it('a submission answered after the heartbeat timeout keeps its activity alive: one job at fal, one attempt', async () => {
    const heartbeatTimeoutMs = 1_500;
    const shortBeats = await startExtraApi({
      taskQueue: 'test-provider-jobs',
      routing: { providerMode: 'live', configuredProviders: ['fal'] },
      generationTimeouts: { ...stack().apiDeps.generationTimeouts, heartbeatTimeoutMs },
    });
    let answer!: () => void;
    fal.script.holdSubmitAnswer(new Promise<void>((resolve) => (answer = resolve))).slowJob(300);
    const prompt = 'a slow submission';
    const res = await call('POST', '/v1/videos', { key: org.liveKey, baseUrl: shortBeats.url, body: { model: 'hailuo-02', duration_s: 6, prompt } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id: string = res.body.id;
    await submitted(prompt);
    // Heartbeats recorded past twice the timeout while fal still holds the answer: the activity
    // lives on as its first attempt (before, its one early heartbeat let it time out and a second
    // attempt submitted a second job).
    await waitFor(
      async () => {
        const activity = await pendingActivity(id);
        assert.equal(activity?.attempt, 1, `attempt ${activity?.attempt}: the activity timed out`);
        return activity!.heartbeatMs !== undefined && activity!.heartbeatMs - activity!.startedMs! > 2 * heartbeatTimeoutMs;
      },
      20_000,
      'a heartbeat past twice the timeout',
    );
    answer();
    const gen = await ended(id);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    const submits = fal.received.filter((r) => r.operation === 'submit' && (r.body as { prompt?: string }).prompt === prompt);
    assert.equal(submits.length, 1, 'one job submitted to fal');
    const events = (await stack().temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
    assert.deepEqual(
      events.filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt),
      [1],
    );
    await shortBeats.close();
    await assertMoneyInvariants(org.id);
  });
});
