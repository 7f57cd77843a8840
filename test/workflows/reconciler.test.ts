import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/activity';
import { newId } from '../../lib/ids';
import { RECONCILER_SCHEDULE_ID } from '../../worker/reconciler-schedule';
import type { ReconcilerResult } from '../../workflows/reconciler';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

async function runReconciler(taskQueue = stack().config.taskQueue): Promise<ReconcilerResult> {
  return stack().temporal.workflow.execute('reconcilerWorkflow', {
    taskQueue,
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
    assert.deepEqual(
      described.spec.intervals?.map((i) => i.every),
      [60_000],
    );
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
    assert.deepEqual(
      events.map((e: { type: string }) => e.type),
      ['generation.failed'],
    );

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

  describe('with a page size of 100 and a repair that can be made to fail', () => {
    const TASK_QUEUE = 'test-reconciler-pages';
    /** Generations whose next repair fails (once), as a repair whose retries are spent. */
    const failNext = new Set<string>();
    let worker: Awaited<ReturnType<typeof startTestWorker>>;

    before(async () => {
      worker = await startTestWorker(TASK_QUEUE, {
        reconcilerPageSize: 100,
        activities: (real) => ({
          async settleStrandedGeneration(id: string) {
            if (failNext.delete(id)) throw ApplicationFailure.nonRetryable(`injected: the repair of ${id} failed`, 'InjectedFailure');
            return real.settleStrandedGeneration(id);
          },
        }),
      });
    });

    after(async () => worker.stop());

    /** A video whose workflow is terminated while its provider job runs: stranded, credits reserved. */
    async function strandedVideo(key: string, prompt: string): Promise<string> {
      const created = await call('POST', '/v1/videos', { key, body: { model: 'hailuo-02', prompt: `${prompt} #slow:60000` } });
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const id: string = created.body.id;
      await waitFor(async () => (await stack().repos.generations.findById(id))?.provider_job_id, 20_000, 'the provider job');
      await stack().temporal.workflow.getHandle(id).terminate('stranding it');
      // The reconciler skips the workflows the visibility store lists as running, and that store
      // lags the terminate by a moment on a busy machine: wait until it too says it is closed.
      await waitFor(
        async () => {
          for await (const execution of stack().temporal.workflow.list({ query: `WorkflowId = '${id}' AND ExecutionStatus = 'Running'` })) return execution.workflowId !== id;
          return true;
        },
        20_000,
        'the visibility store to list it as closed',
      );
      return id;
    }

    it('finds a stranded generation behind 500 older ones whose workflows run, in one run, and leaves those alone', async function () {
      this.timeout(180_000);
      const org = await createOrganization({ credits: 100_000 });
      // 500 open generations, older than anything else in the database, each with a running
      // generation workflow of its id: on a queue no worker polls, it stays RUNNING at no cost (and
      // never reads its input). Their rows copy a real one's columns; nothing is reserved for them.
      const template = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'template' } });
      assert.equal(template.status, 200, JSON.stringify(template.body));
      const row: Record<string, unknown> = await stack().knex('generations').where({ id: template.body.id }).first();
      const oldest: Date = (await stack().knex('generations').min('created_at as at').first())!.at;
      const busy = Array.from({ length: 500 }, () => newId('gen'));
      await stack()
        .knex('generations')
        .insert(
          busy.map((id, i) => ({
            ...Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v])),
            id,
            status: 'running',
            reserved_credits: 0,
            charged_credits: 0,
            refunded_credits: 0,
            created_at: new Date(oldest.getTime() - 60_000 + i),
            finished_at: null,
          })),
        );
      try {
        for (let i = 0; i < busy.length; i += 25) {
          await Promise.all(
            busy.slice(i, i + 25).map((workflowId) => stack().temporal.workflow.start('generationWorkflow', { taskQueue: 'reconciler-test-nobody', workflowId, args: [{}] })),
          );
        }
        const stranded = await strandedVideo(org.liveKey, 'behind the busy ones');

        const result = await runReconciler(TASK_QUEUE);
        const gen = await stack().repos.generations.findById(stranded);
        assert.deepEqual([gen?.status, gen?.error_code], ['failed', 'reconciled'], `one run reached it: ${JSON.stringify(result)}`);
        const open = await stack().knex('generations').whereIn('id', busy).whereIn('status', ['queued', 'running']).count('* as n').first();
        assert.equal(Number(open?.n), 500, 'the generations whose workflow runs were left alone');
        assert.deepEqual(await ledgerKinds(stranded), ['reserve', 'refund']);
      } finally {
        for (let i = 0; i < busy.length; i += 25) {
          await Promise.all(
            busy.slice(i, i + 25).map((id) =>
              stack()
                .temporal.workflow.getHandle(id)
                .terminate('test over')
                .catch(() => undefined),
            ),
          );
        }
        await stack().knex('generations').whereIn('id', busy).update({ status: 'failed', error_code: 'internal_error', finished_at: new Date() });
      }
      await assertLedgerBalanced(org.id);
    });

    it('a repair that fails is logged and left to the next run: the others, in the same run, are repaired', async () => {
      const org = await createOrganization({ credits: 100_000 });
      const failing = await strandedVideo(org.liveKey, 'fails once');
      const other = await strandedVideo(org.liveKey, 'repaired');
      failNext.add(failing);

      const first = await runReconciler(TASK_QUEUE);
      assert.equal(first.failed, 1, JSON.stringify(first));
      assert.equal((await stack().repos.generations.findById(other))?.error_code, 'reconciled', 'repaired despite the other failing');
      assert.equal((await stack().repos.generations.findById(failing))?.status, 'running', 'still stranded');

      const second = await runReconciler(TASK_QUEUE);
      assert.equal(second.failed, 0, JSON.stringify(second));
      assert.equal((await stack().repos.generations.findById(failing))?.error_code, 'reconciled');
      assert.deepEqual(await ledgerKinds(failing), ['reserve', 'refund']);
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
    });
  });
});
