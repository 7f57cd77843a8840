import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { DEFAULT_GENERATION_TIMEOUTS, type GenerationInput } from '../../workflows/definitions';
import type { ReconcilerResult } from '../../workflows/reconciler';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { killHard, spawnWorkerProcess } from '../helpers/service-process';
import { startExtraApi, stack } from '../helpers/stack';

// A comparison survives what a generation survives: a worker killed mid-way, and (through the
// reconciler) a comparison workflow an operator terminated.

async function waitForVerdict(id: string, key: string, baseUrl?: string) {
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/comparisons/${id}`, { key, ...(baseUrl && { baseUrl }) });
      return res.body?.finished_at ? res.body : undefined;
    },
    90_000,
    `comparison ${id} to finish`,
  );
}

async function eventTypes(subjectId: string): Promise<string[]> {
  return (await stack().repos.events.listForSubject(subjectId)).map((e) => e.type);
}

async function runReconcilerUntil(done: () => Promise<boolean>): Promise<ReconcilerResult[]> {
  const runs: ReconcilerResult[] = [];
  // Each run works off the oldest open rows first; other tests leave many, so this may take a few.
  await waitFor(
    async () => {
      runs.push(
        await stack().temporal.workflow.execute('reconcilerWorkflow', {
          taskQueue: stack().config.taskQueue,
          workflowId: `reconciler-cmp-${Date.now()}-${Math.random().toString(36).slice(2)}`,
          args: [{ minAgeMs: 0 }],
        }),
      );
      return done();
    },
    45_000,
    'the reconciler to finish the comparison',
  );
  return runs;
}

describe('a comparison interrupted', function () {
  this.timeout(150_000);
  const workers: ChildProcess[] = [];
  after(async () => {
    for (const worker of workers) await killHard(worker);
  });

  it('by a worker killed mid-way: every child ends once, charged or refunded once, and comparison.completed is written once', async () => {
    const taskQueue = `cmp-crash-${Date.now()}`;
    const api = await startExtraApi({ taskQueue });
    const first = await spawnWorkerProcess(taskQueue);
    workers.push(first);
    const org = await createOrganization({ plan: 'studio', credits: 10_000 });
    const res = await call('POST', '/v1/comparisons', {
      key: org.liveKey,
      baseUrl: api.url,
      body: { prompt: 'survive the crash #slow:3000 #fail:flux-schnell', models: ['flux-schnell', 'flux-dev', 'imagen-4-fast'] },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id: string = res.body.id;
    const childIds: string[] = res.body.generations.map((g: { id: string }) => g.id);

    await waitFor(
      async () => {
        const rows = await stack().knex('generations').whereIn('id', childIds).select('status');
        return rows.length === 3 && rows.some((r: { status: string }) => r.status === 'running');
      },
      20_000,
      'a child to start',
    );
    await killHard(first);
    const second = await spawnWorkerProcess(taskQueue);
    workers.push(second);

    const done = await waitForVerdict(id, org.liveKey, api.url);
    assert.equal(done.status, 'partial');
    const byModel = Object.fromEntries(done.generations.map((g: { model: string }) => [g.model, g]));
    assert.equal(byModel['flux-schnell'].status, 'failed');
    assert.equal(byModel['flux-schnell'].error_code, 'provider_error');
    for (const childId of childIds) {
      const child = done.generations.find((g: { id: string }) => g.id === childId);
      assert.equal((await call('GET', `/v1/generations/${childId}`, { key: org.liveKey, baseUrl: api.url })).body.comparison_id, id);
      assert.deepEqual(await ledgerKinds(childId), child.status === 'succeeded' ? ['reserve', 'capture'] : ['reserve', 'refund']);
      assert.deepEqual(await eventTypes(childId), [child.status === 'succeeded' ? 'generation.completed' : 'generation.failed']);
    }
    assert.deepEqual(await eventTypes(id), ['comparison.completed']);
    await assertLedgerBalanced(org.id);
    // The kill really interrupted it: some workflow task of the comparison or its children timed out.
    const histories = await Promise.all([id, ...childIds].map((wid) => stack().temporal.workflow.getHandle(wid).fetchHistory()));
    assert.ok(
      histories.some((h) => (h.events ?? []).some((e) => e.workflowTaskTimedOutEventAttributes)),
      "expected the killed worker's workflow task to time out",
    );
    await api.close();
  });

  it('by a terminated comparison workflow: its children finish on their own and the reconciler records the verdict they give', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const res = await call('POST', '/v1/comparisons', {
      key: org.liveKey,
      body: { prompt: 'orphaned #slow:3000', models: ['hailuo-02', 'seedance-1-pro-fast'] },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id: string = res.body.id;
    const childIds: string[] = res.body.generations.map((g: { id: string }) => g.id);
    await waitFor(
      async () => {
        const rows = await stack().knex('generations').whereIn('id', childIds).whereNotNull('provider_job_id');
        return rows.length === 2;
      },
      20_000,
      'both children to reach the provider',
    );
    await stack().temporal.workflow.getHandle(id).terminate('operator pressed terminate');

    // The children outlive their parent (parent close policy ABANDON) and settle themselves.
    for (const childId of childIds) assert.equal(await stack().temporal.workflow.getHandle(childId).result(), 'succeeded');
    assert.equal((await stack().repos.comparisons.findWithChildren(id))?.comparison.status, 'open');

    await runReconcilerUntil(async () => (await stack().repos.comparisons.findWithChildren(id))?.comparison.status !== 'open');
    const done = (await call('GET', `/v1/comparisons/${id}`, { key: org.liveKey })).body;
    assert.equal(done.status, 'succeeded');
    assert.ok(done.finished_at);
    assert.deepEqual(await eventTypes(id), ['comparison.completed']);
    await runReconcilerUntil(async () => true);
    assert.deepEqual(await eventTypes(id), ['comparison.completed'], 'a second run records nothing more');
    await assertLedgerBalanced(org.id);
  });

  it('by a terminated comparison and terminated children: the reconciler refunds the children, then records `failed`', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const res = await call('POST', '/v1/comparisons', {
      key: org.liveKey,
      body: { prompt: 'abandoned #slow:60000', models: ['hailuo-02', 'seedance-1-pro-fast'] },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id: string = res.body.id;
    const childIds: string[] = res.body.generations.map((g: { id: string }) => g.id);
    await waitFor(async () => (await stack().knex('generations').whereIn('id', childIds).whereNotNull('provider_job_id')).length === 2, 20_000, 'the provider jobs');
    for (const wid of [id, ...childIds]) await stack().temporal.workflow.getHandle(wid).terminate('operator pressed terminate');

    await runReconcilerUntil(async () => (await stack().repos.comparisons.findWithChildren(id))?.comparison.status !== 'open');
    const done = (await call('GET', `/v1/comparisons/${id}`, { key: org.liveKey })).body;
    assert.equal(done.status, 'failed');
    assert.equal(done.charged_credits, 0);
    assert.equal(done.refunded_credits, done.reserved_credits);
    for (const child of done.generations) {
      assert.equal(child.status, 'failed');
      assert.equal(child.error_code, 'reconciled');
      assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'refund']);
    }
    assert.deepEqual(await eventTypes(id), ['comparison.completed']);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('leaves a child alone that its comparison already refunded: a late start of its workflow runs nothing and moves nothing', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const res = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'never mind #slow:600000', models: ['hailuo-02', 'seedance-1-pro-fast'] } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const canceled = await call('POST', `/v1/comparisons/${res.body.id}/cancel`, { key: org.liveKey });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    const child = (await stack().repos.generations.findById(res.body.generations[0].id))!;
    assert.equal(child.status, 'canceled');
    const before = await ledgerKinds(child.id);

    // The child's workflow starting only now, as a start that raced the cancel would.
    const input: GenerationInput = {
      generationId: child.id,
      organizationId: child.organization_id,
      apiKeyId: child.api_key_id,
      environment: child.environment,
      modality: child.modality,
      model: child.model,
      prompt: child.prompt,
      params: child.params,
      estimatedCredits: child.reserved_credits,
      timeouts: DEFAULT_GENERATION_TIMEOUTS,
      plan: 'pro',
      comparisonId: res.body.id,
    };
    const outcome = await stack().temporal.workflow.execute('generationWorkflow', {
      taskQueue: stack().config.taskQueue,
      workflowId: `late-child-${child.id}`,
      args: [input],
    });
    assert.equal(outcome, 'rejected');
    const after = (await stack().repos.generations.findById(child.id))!;
    assert.equal(after.status, 'canceled');
    assert.equal(after.provider_job_id, child.provider_job_id, 'no new provider job');
    assert.deepEqual(await ledgerKinds(child.id), before);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });
});
