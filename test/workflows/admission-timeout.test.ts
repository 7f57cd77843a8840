import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { killHard, spawnWorkerProcess } from '../helpers/service-process';
import { startExtraApi, stack } from '../helpers/stack';

describe('a job no worker admits in time', function () {
  this.timeout(90_000);
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) await killHard(child);
  });

  it('answers 503, is never run or charged when a worker comes later, and can be retried with its key', async () => {
    const taskQueue = `nobody-${Date.now()}`;
    // 3 s, not 1: the API cancels its start when it gives up, and on a loaded machine a start can take
    // over a second to reach Temporal; cancelled before that, no workflow exists for the check below.
    const api = await startExtraApi({ taskQueue, admissionTimeoutMs: 3_000 });
    const org = await createOrganization();
    const headers = { 'Idempotency-Key': 'late-1' };
    const body = { model: 'hailuo-02', prompt: 'nobody home' };

    const started = Date.now();
    const refused = await call('POST', '/v1/videos', { key: org.liveKey, body, headers, baseUrl: api.url });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'provider_unavailable');
    assert.ok(Date.now() - started < 10_000);

    // The workflow exists, waiting for a worker; when one comes, it refuses the stale admission.
    const key = await stack().knex('idempotency_keys').where({ organization_id: org.id, key: 'late-1' }).first();
    const worker = await spawnWorkerProcess(taskQueue);
    children.push(worker);
    assert.equal(await stack().temporal.workflow.getHandle(key.resource_id).result(), 'rejected');
    assert.equal(await stack().repos.generations.findById(key.resource_id), undefined);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });

    // The same request, retried with its key now that a worker runs, goes through under the same id.
    const retried = await call('POST', '/v1/videos', { key: org.liveKey, body, headers, baseUrl: api.url });
    assert.equal(retried.status, 202, JSON.stringify(retried.body));
    assert.equal(retried.body.id, key.resource_id);
    assert.equal((await waitForGeneration(retried.body.id, org.liveKey)).status, 'succeeded');
    await assertLedgerBalanced(org.id);
    await api.close();
  });
});
