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

  it('lets a new worker finish the generation exactly once, charged exactly once', async () => {
    const taskQueue = `crash-${Date.now()}`;
    const api = await startExtraApi({ taskQueue, syncTimeoutMs: 100 });
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
    assert.deepEqual(events.map((e) => e.type), ['generation.completed']);

    // The kill really interrupted the job: the dead worker's workflow task timed out and another
    // worker took the generation over.
    const history = await stack().temporal.workflow.getHandle(id).fetchHistory();
    assert.ok(
      (history.events ?? []).some((e) => e.workflowTaskTimedOutEventAttributes),
      'expected the killed worker\'s workflow task to time out',
    );
    await api.close();
  });
});
