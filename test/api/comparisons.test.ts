import assert from 'node:assert/strict';
import { call, createOrganization, waitFor } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';

/** Polls the comparison until it has its verdict. */
export async function waitForComparison(id: string, key: string, timeoutMs = 60_000) {
  return waitFor(async () => {
    const res = await call('GET', `/v1/comparisons/${id}`, { key });
    return res.body?.finished_at ? res.body : undefined;
  }, timeoutMs, `comparison ${id} to finish`);
}

describe('POST /v1/comparisons', function () {
  this.timeout(90_000);

  it('runs one prompt on two image models: 202 queued, then succeeded with each child charged its own estimate', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const created = await call('POST', '/v1/comparisons', {
      key: org.liveKey,
      body: { prompt: 'a lighthouse at dusk', models: ['flux-schnell', 'flux-dev'], params_shared: { aspect_ratio: '16:9' } },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.match(created.body.id, /^cmp_/);
    assert.equal(created.body.object, 'comparison');
    assert.equal(created.body.status, 'queued');
    assert.equal(created.body.generations.length, 2);
    const done = await waitForComparison(created.body.id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.charged_credits, done.reserved_credits);
    for (const child of done.generations) {
      assert.equal(child.status, 'succeeded');
      assert.equal(child.outputs.length, 1);
      assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'capture']);
      const alone = await call('GET', `/v1/generations/${child.id}`, { key: org.liveKey });
      assert.equal(alone.body.status, 'succeeded');
    }
    const events = await stack().repos.events.listForSubject(created.body.id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'comparison.completed');
    await assertLedgerBalanced(org.id);
  });
});
