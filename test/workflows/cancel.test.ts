import assert from 'node:assert/strict';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';

describe('a generation workflow cancelled from Temporal', () => {
  it('ends canceled and refunds the whole reservation', async () => {
    const api = await startExtraApi({ syncTimeoutMs: 100 });
    const org = await createOrganization({ credits: 1000 });
    const res = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: api.url, body: { model: 'flux-dev', prompt: 'never mind #slow:20000' } });
    assert.equal(res.status, 202);
    const id: string = res.body.id;
    await waitFor(async () => (await stack().repos.generations.findById(id))?.status === 'running', 20_000, 'the provider to start');

    await stack().temporal.workflow.getHandle(id).cancel();
    const done = await waitForGeneration(id, org.liveKey, ['canceled', 'succeeded', 'failed'], 20_000);

    assert.equal(done.status, 'canceled');
    assert.equal(done.charged_credits, 0);
    assert.equal(done.refunded_credits, res.body.reserved_credits);
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'refund']);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000, reservedCredits: 0 });
    await api.close();
  });
});
