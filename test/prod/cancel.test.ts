import assert from 'node:assert/strict';
import { waitFor } from '../helpers/http';
import { prodStack, prodTemporal } from './fixture';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodLedgerKinds } from './helpers';

// Cancel across processes: the generation is created through one API process, runs on a worker
// process, and is cancelled through the other API process, which reaches the workflow through the
// Temporal server on Postgres.

const slowVideo = { model: 'hailuo-02', prompt: 'a long take #slow:600000', duration_s: 6 };

describe('cancel on the production topology', function () {
  this.timeout(60_000);

  it('cancels a running async generation through the other API process: canceled, the whole reservation refunded', async () => {
    const [first, second] = prodStack().apiUrls;
    const org = await createProdOrganization();
    const created = await prodCall('POST', '/v1/videos', { key: org.liveKey, body: slowVideo, baseUrl: first });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.ok(created.body.reserved_credits > 0);
    await waitFor(
      async () => (await prodCall('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey, baseUrl: second })).body.status === 'running',
      20_000,
      'the job to run',
    );

    const canceled = await prodCall('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey, baseUrl: second });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.equal(canceled.body.status, 'canceled');
    assert.equal(canceled.body.charged_credits, 0);
    assert.equal(canceled.body.refunded_credits, created.body.reserved_credits);
    // The workflow ends as cancelled on the Temporal server (the refund commits just before it closes).
    const handle = prodTemporal().workflow.getHandle(created.body.id);
    await handle.result().catch(() => undefined);
    assert.equal((await handle.describe()).status.name, 'CANCELLED');
    assert.deepEqual(await prodLedgerKinds(created.body.id), ['reserve', 'refund']);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('answers 409 generation_not_cancelable from either process once it is canceled, and moves no more money', async () => {
    const org = await createProdOrganization();
    const created = await prodCall('POST', '/v1/videos', { key: org.liveKey, body: slowVideo });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await prodCall('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey })).status, 200);
    for (const baseUrl of prodStack().apiUrls) {
      const again = await prodCall('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey, baseUrl });
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(again.body.error.code, 'generation_not_cancelable');
    }
    assert.deepEqual(await prodLedgerKinds(created.body.id), ['reserve', 'refund']);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it("answers 404 resource_not_found for another organization's generation, and leaves it running", async () => {
    const owner = await createProdOrganization();
    const stranger = await createProdOrganization();
    const created = await prodCall('POST', '/v1/videos', { key: owner.liveKey, body: slowVideo });
    assert.equal(created.status, 202);
    const res = await prodCall('POST', `/v1/generations/${created.body.id}/cancel`, { key: stranger.liveKey });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'resource_not_found');
    assert.notEqual((await prodCall('GET', `/v1/generations/${created.body.id}`, { key: owner.liveKey })).body.status, 'canceled');
    // Its owner cancels it, so nothing is left running after the test.
    assert.equal((await prodCall('POST', `/v1/generations/${created.body.id}/cancel`, { key: owner.liveKey })).status, 200);
    await assertProdLedgerBalanced(owner.id);
    assert.deepEqual(await assertProdLedgerBalanced(stranger.id), { availableCredits: 100_000, reservedCredits: 0 });
  });
});
