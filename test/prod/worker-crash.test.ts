import assert from 'node:assert/strict';
import type { ManagedProcess } from '../../embedded/prod-stack';
import { waitFor } from '../helpers/http';
import { prodKnex, prodStack, prodTemporal } from './fixture';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodLedgerKinds, waitForProdGeneration, workerIdentityPrefix } from './helpers';

// A worker process SIGKILLed while it polls async jobs: the Temporal server notices through the
// polling activity's heartbeat timeout (30 s) and the other worker process polls the same provider
// jobs to the end. Nothing is submitted twice and nothing is charged twice.

// Each job waits 20 s at the (simulated) provider: long enough that every one is still polling
// when the kill lands, however loaded the machine is. The killed worker's jobs finish after the
// heartbeat timeout (30 s) anyway, so this costs the test no time.
const SLOW = '#slow:20000';
const JOBS: [string, Record<string, unknown>][] = [
  ['/v1/videos', { model: 'hailuo-02', prompt: `a long take ${SLOW}`, duration_s: 6 }],
  ['/v1/videos', { model: 'hailuo-02', prompt: `another take ${SLOW}`, duration_s: 6, aspect_ratio: '1:1' }],
  ['/v1/music', { model: 'minimax-music-v2', prompt: `a slow song ${SLOW}`, duration_s: 15 }],
  ['/v1/music', { model: 'minimax-music-v2', prompt: `another song ${SLOW}`, duration_s: 15 }],
  ['/v1/three-d', { model: 'tripo-v2.5-text', prompt: `a slow teapot ${SLOW}`, mesh_complexity: 'low', texture_size: '1024' }],
  ['/v1/avatars', { model: 'veed-avatars', text: `Waiting for the provider. ${SLOW}`, avatar_id: 'ava_emily' }],
];

/**
 * The identity of the worker whose `runProviderJob` activity is polling the generation's job, once
 * one is: the job is submitted (its id recorded on the row) and the activity still runs.
 */
async function pollingWorkerIdentity(generationId: string): Promise<string | undefined> {
  const row = await prodKnex()('generations').where({ id: generationId }).first('provider_job_id');
  if (!row?.provider_job_id) return undefined;
  const { raw } = await prodTemporal().workflow.getHandle(generationId).describe();
  const polling = (raw.pendingActivities ?? []).find((a) => a.activityType?.name === 'runProviderJob');
  return polling?.lastWorkerIdentity || undefined;
}

/** The provider job ids recorded on the generations' rows, in their order. */
async function providerJobIds(ids: string[]): Promise<string[]> {
  const rows: { id: string; provider_job_id: string }[] = await prodKnex()('generations').whereIn('id', ids).select('id', 'provider_job_id');
  return ids.map((id) => rows.find((r) => r.id === id)?.provider_job_id ?? '');
}

/** The activity events of a generation's workflow history, by activity type. */
async function activityHistory(generationId: string) {
  const events = (await prodTemporal().workflow.getHandle(generationId).fetchHistory()).events ?? [];
  const typeOf = new Map<string, string>();
  for (const e of events) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) typeOf.set(String(e.eventId), scheduled.activityType?.name ?? '');
  }
  return {
    scheduled: (type: string) => [...typeOf.values()].filter((t) => t === type).length,
    completedBy: (type: string) =>
      events
        .map((e) => e.activityTaskCompletedEventAttributes)
        .filter((c) => c && typeOf.get(String(c.scheduledEventId)) === type)
        .map((c) => c!.identity ?? ''),
  };
}

describe('a worker process SIGKILLed on the production topology', function () {
  this.timeout(180_000);
  // Whatever happens, the next test file finds both workers running.
  after(async () => {
    for (const worker of prodStack().workers) if (!worker.alive()) await worker.restart();
  });

  it('lets the other worker finish every job it was polling, each submitted once and charged once; the killed worker rejoins on restart', async () => {
    const { workers } = prodStack();
    assert.equal(workers.length, 2);
    const org = await createProdOrganization();
    const created = await Promise.all(JOBS.map(([endpoint, body]) => prodCall('POST', endpoint, { key: org.liveKey, body })));
    for (const res of created) assert.equal(res.status, 202, JSON.stringify(res.body));
    const ids = created.map((res) => res.body.id as string);

    const pollers = await waitFor(
      async () => {
        const identities = await Promise.all(ids.map(pollingWorkerIdentity));
        return identities.every(Boolean) ? (identities as string[]) : undefined;
      },
      15_000,
      'every job to be polled by a worker',
    );
    const jobsOf = (worker: ManagedProcess) => ids.filter((_, i) => pollers[i]!.startsWith(workerIdentityPrefix(worker)));
    // The victim is the worker polling more of the jobs: whichever it is, the kill interrupts some.
    const [victim, survivor] = jobsOf(workers[0]!).length >= jobsOf(workers[1]!).length ? [workers[0]!, workers[1]!] : [workers[1]!, workers[0]!];
    const interrupted = jobsOf(victim);
    assert.ok(interrupted.length > 0, `the jobs are polled by ${pollers.join(', ')}, not by worker ${victim.pid} or ${survivor.pid}`);

    const jobIdsBefore = await providerJobIds(interrupted);
    await victim.kill('SIGKILL');
    assert.equal(victim.alive(), false);
    assert.equal(survivor.alive(), true);

    const done = await Promise.all(ids.map((id) => waitForProdGeneration(id, org.liveKey, 120_000)));
    for (const gen of done) {
      assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
      assert.equal(gen.charged_credits, gen.reserved_credits);
      const file = await fetch(gen.outputs[0].url);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), gen.outputs[0].mime);
      await file.arrayBuffer();
      assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
    }
    assert.deepEqual(await providerJobIds(interrupted), jobIdsBefore, 'the same provider jobs were polled to the end, none submitted again');
    for (const id of interrupted) {
      const history = await activityHistory(id);
      assert.equal(history.scheduled('runProviderJob'), 1, `${id}: one provider activity, its retry resuming the recorded job`);
      const finishers = history.completedBy('runProviderJob');
      assert.equal(finishers.length, 1, `${id}: one polling activity completed`);
      assert.ok(finishers[0]!.startsWith(workerIdentityPrefix(survivor)), `${id} was finished by ${finishers[0]}, not by the surviving worker ${survivor.pid}`);
    }
    const charged = done.reduce((sum, gen) => sum + (gen.charged_credits as number), 0);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000 - charged, reservedCredits: 0 });

    await victim.restart();
    assert.equal(victim.alive(), true);
    const after = await prodCall('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'after the restart' } });
    assert.equal(after.status, 202, JSON.stringify(after.body));
    assert.equal((await waitForProdGeneration(after.body.id, org.liveKey)).status, 'succeeded');
    await assertProdLedgerBalanced(org.id);
  });
});
