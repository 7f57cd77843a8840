import assert from 'node:assert/strict';
import { call, createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// Decisions §4: `sk_test_` requests run every check but reserve and charge nothing.

const ledgerRowsOf = (organizationId: string) => stack().knex('ledger_entries').where({ organization_id: organizationId }).orderBy('id').select('kind', 'generation_id');
const eventTypesOf = (generationId: string) => stack().knex('events').where({ subject_id: generationId }).pluck('type');

describe('sandbox (sk_test_ keys)', () => {
  it('leaves the wallet untouched and writes no ledger rows, yet still records the event', async () => {
    const org = await createOrganization({ credits: 500 });
    const before = await ledgerRowsOf(org.id);
    assert.deepEqual(before, [{ kind: 'topup', generation_id: null }]);

    const ok = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-dev', prompt: 'sandbox', num_outputs: 2 } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.status, 'succeeded');
    assert.equal(ok.body.reserved_credits, 0);
    assert.equal(ok.body.charged_credits, 0);
    const failed = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-dev', prompt: 'sandbox #fail' } });
    assert.equal(failed.status, 200);
    assert.equal(failed.body.status, 'failed');
    assert.equal(failed.body.refunded_credits, 0);

    assert.deepEqual(await ledgerRowsOf(org.id), before);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 500, reservedCredits: 0 });
    assert.deepEqual(await eventTypesOf(ok.body.id), ['generation.completed']);
    assert.deepEqual(await eventTypesOf(failed.body.id), ['generation.failed']);
  });

  it('still refuses a Studio+ model on a Pro plan', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 500 });
    const res = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-1.1-pro-ultra', prompt: 'x' } });
    assert.equal(res.status, 402);
    assert.equal(res.body.error.code, 'plan_upgrade_required');
  });

  it('needs no credits: a test key of an empty wallet still generates', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 0 });
    const sandbox = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'free' } });
    assert.equal(sandbox.status, 200);
    assert.equal(sandbox.body.status, 'succeeded');
    const live = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'paid' } });
    assert.equal(live.status, 402);
    assert.equal(live.body.error.code, 'insufficient_credits');
    assert.deepEqual(await ledgerRowsOf(org.id), []);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 0, reservedCredits: 0 });
  });
});
