import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';
import { killHard, spawnWorkerProcess } from '../helpers/service-process';

describe('a worker killed mid-generation', function () {
  this.timeout(120_000);
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) await killHard(child);
  });

  // The second case: the new worker replays the workflow after its admission deadline has passed,
  // and must find the reservation the dead worker committed, not refuse the admission.
  for (const [when, admissionTimeoutMs] of [
    ['', 30_000],
    [', even past its admission deadline', 2_000],
  ] as const) {
    it(`lets a new worker finish the generation exactly once, charged exactly once${when}`, async () => {
      const taskQueue = `crash-${Date.now()}`;
      const api = await startExtraApi({ taskQueue, syncTimeoutMs: 100, admissionTimeoutMs });
      const first = await spawnWorkerProcess(taskQueue);
      children.push(first);
      const org = await createOrganization({ credits: 1000 });

      const res = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: api.url, body: { model: 'flux-dev', prompt: 'survive #slow:3000' } });
      assert.equal(res.status, 202);
      const id: string = res.body.id;
      const reserved: number = res.body.reserved_credits;

      await waitFor(async () => (await stack().repos.generations.findById(id))?.status === 'running', 20_000, 'the provider to start');
      await killHard(first);

      const second = await spawnWorkerProcess(taskQueue);
      children.push(second);
      const done = await waitForGeneration(id, org.liveKey, ['succeeded', 'failed', 'canceled'], 60_000);

      assert.equal(done.status, 'succeeded');
      assert.equal(done.charged_credits, reserved);
      assert.equal(done.outputs.length, 1);
      assert.equal((await fetch(done.outputs[0].url)).status, 200);
      assert.deepEqual(await ledgerKinds(id), ['reserve', 'capture']);
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000 - reserved, reservedCredits: 0 });
      const events = await stack().repos.events.listForSubject(id);
      assert.deepEqual(
        events.map((e) => e.type),
        ['generation.completed'],
      );

      // The kill really interrupted the job: the dead worker's workflow task timed out and another
      // worker took the generation over.
      const history = await stack().temporal.workflow.getHandle(id).fetchHistory();
      assert.ok(
        (history.events ?? []).some((e) => e.workflowTaskTimedOutEventAttributes),
        "expected the killed worker's workflow task to time out",
      );
      await api.close();
    });
  }

  it('resumes polling an async provider job on another worker after the heartbeat timeout', async () => {
    const taskQueue = `crash-async-${Date.now()}`;
    const api = await startExtraApi({ taskQueue, generationTimeouts: { ...stack().apiDeps.generationTimeouts, heartbeatTimeoutMs: 2_000 } });
    const first = await spawnWorkerProcess(taskQueue);
    children.push(first);
    const org = await createOrganization({ credits: 10_000 });

    const res = await call('POST', '/v1/videos', { key: org.liveKey, baseUrl: api.url, body: { model: 'hailuo-02', prompt: 'outlive #slow:8000' } });
    assert.equal(res.status, 202);
    const id: string = res.body.id;
    // Submitted to the provider (the job id is recorded), now polling: kill the poller. The job
    // takes 8 s, so even on a loaded machine the kill lands before the first poll could finish it.
    await waitFor(async () => ((await stack().repos.generations.findById(id))?.provider_job_id ? true : undefined), 20_000, 'the provider job');
    const providerJobId = (await stack().repos.generations.findById(id))!.provider_job_id;
    await killHard(first);

    const second = await spawnWorkerProcess(taskQueue);
    children.push(second);
    const done = await waitForGeneration(id, org.liveKey, ['succeeded', 'failed', 'canceled'], 60_000);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.outputs[0].mime, 'video/mp4');
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'capture']);
    await assertLedgerBalanced(org.id);

    // The same provider job was polled to the end (not submitted again), after a heartbeat timeout.
    assert.equal((await stack().repos.generations.findById(id))!.provider_job_id, providerJobId);
    const history = await stack().temporal.workflow.getHandle(id).fetchHistory();
    const events = history.events ?? [];
    assert.equal(
      events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runProviderJob').length,
      1,
      'one activity scheduled: its retry resumed the recorded job',
    );
    const started = events.filter((e) => e.activityTaskStartedEventAttributes && Number(e.activityTaskStartedEventAttributes.attempt) > 1);
    assert.ok(started.length >= 1, 'the polling activity ran a second attempt');
    await api.close();
  });
});
