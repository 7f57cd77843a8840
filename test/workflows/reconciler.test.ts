import assert from 'node:assert/strict';
import { RECONCILER_SCHEDULE_ID } from '../../worker/reconciler-schedule';
import type { ReconcilerResult } from '../../workflows/reconciler';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';

async function runReconciler(): Promise<ReconcilerResult> {
  return stack().temporal.workflow.execute('reconcilerWorkflow', {
    taskQueue: stack().config.taskQueue,
    workflowId: `reconciler-test-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    // Every open generation, however young: mocha runs one test at a time, so none is in progress.
    args: [{ minAgeMs: 0 }],
  });
}

describe('the reconciler', function () {
  this.timeout(60_000);

  it('is a Schedule the worker created, running the reconciler every minute', async () => {
    const described = await stack().temporal.schedule.getHandle(RECONCILER_SCHEDULE_ID).describe();
    assert.equal(described.action.type, 'startWorkflow');
    assert.equal(described.action.workflowType, 'reconcilerWorkflow');
    assert.deepEqual(described.spec.intervals?.map((i) => i.every), [60_000]);
  });

  it('refunds a generation whose workflow was terminated, once, with its generation.failed event', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'abandoned #slow:60000' } });
    assert.equal(created.status, 202);
    const id: string = created.body.id;
    await waitFor(async () => (await stack().repos.generations.findById(id))?.provider_job_id, 20_000, 'the provider job');
    await stack().temporal.workflow.getHandle(id).terminate('operator pressed terminate');
    assert.equal((await stack().repos.generations.findById(id))?.status, 'running', 'terminated with credits reserved');

    // Each run works off the oldest 500 open generations; the suite leaves many (the ledger tests'
    // rows have no workflow), so this one may take a few runs.
    await waitFor(
      async () => {
        await runReconciler();
        return (await stack().repos.generations.findById(id))?.status !== 'running';
      },
      45_000,
      'the reconciler to reach the terminated generation',
    );
    const gen = await stack().repos.generations.findById(id);
    assert.equal(gen?.status, 'failed');
    assert.equal(gen?.error_code, 'reconciled');
    assert.deepEqual([gen?.error_source, gen?.retryable], ['gateway', true], 'our interruption: sending the request again may well succeed');
    assert.equal(gen?.charged_credits, 0);
    assert.equal(gen?.refunded_credits, created.body.reserved_credits);
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'refund']);
    const events = await stack().knex('events').where({ subject_id: id });
    assert.deepEqual(events.map((e: { type: string }) => e.type), ['generation.failed']);

    // A second run finds nothing more to do for it.
    await runReconciler();
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'refund']);
    assert.equal((await stack().knex('events').where({ subject_id: id })).length, 1);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('leaves a generation whose workflow is still running alone', async () => {
    const org = await createOrganization({ credits: 100_000 });
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'busy #slow:4000' } });
    const id: string = created.body.id;
    await waitFor(async () => (await stack().repos.generations.findById(id))?.provider_job_id, 20_000, 'the provider job');
    await runReconciler();
    const done = await stack().temporal.workflow.getHandle(id).result();
    assert.equal(done, 'succeeded');
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'capture']);
    await assertLedgerBalanced(org.id);
  });
});
