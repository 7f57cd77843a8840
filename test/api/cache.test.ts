import assert from 'node:assert/strict';
import { call, createOrganization } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';

const seeded = { model: 'flux-dev', prompt: 'a red bicycle', seed: 42 };
const pathOf = (url: string) => new URL(url).pathname;

describe('generation cache (decisions §4)', () => {
  it('serves a seeded repeat from the earlier outputs, for 0 credits', async () => {
    const org = await createOrganization();
    const first = await call('POST', '/v1/images', { key: org.liveKey, body: seeded });
    assert.equal(first.status, 200);
    assert.equal(first.body.cache_hit, false);
    assert.ok(first.body.charged_credits > 0);

    const again = await call('POST', '/v1/images', { key: org.liveKey, body: { seed: 42, prompt: 'a red bicycle', model: 'flux-dev' } });
    assert.equal(again.status, 200);
    assert.notEqual(again.body.id, first.body.id);
    assert.equal(again.body.status, 'succeeded');
    assert.equal(again.body.cache_hit, true);
    assert.equal(again.body.reserved_credits, 0);
    assert.equal(again.body.charged_credits, 0);
    assert.deepEqual(
      again.body.outputs.map((o: { url: string }) => pathOf(o.url)),
      first.body.outputs.map((o: { url: string }) => pathOf(o.url)),
    );
    const file = await fetch(again.body.outputs[0].url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/png');

    assert.deepEqual(await ledgerKinds(again.body.id), []);
    const wallet = await assertLedgerBalanced(org.id);
    assert.equal(wallet.availableCredits, 100_000 - first.body.charged_credits);
    const events = await stack().repos.events.listForSubject(again.body.id);
    assert.deepEqual(
      events.map((e) => [e.type, e.data.charged_credits]),
      [['generation.completed', 0]],
    );
    const fetched = await call('GET', `/v1/generations/${again.body.id}`, { key: org.liveKey });
    assert.equal(fetched.body.cache_hit, true);
  });

  it('treats defaults and key order as the same request', async () => {
    const org = await createOrganization();
    await call('POST', '/v1/images', { key: org.liveKey, body: seeded });
    const explicit = await call('POST', '/v1/images', { key: org.liveKey, body: { ...seeded, aspect_ratio: '1:1', num_outputs: 1 } });
    assert.equal(explicit.body.cache_hit, true);
    await assertLedgerBalanced(org.id);
  });

  it('misses without a seed, or with another seed, model, prompt or parameter', async () => {
    const org = await createOrganization();
    const unseeded = { model: 'flux-dev', prompt: 'a red bicycle' };
    await call('POST', '/v1/images', { key: org.liveKey, body: unseeded });
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: unseeded })).body.cache_hit, false);

    await call('POST', '/v1/images', { key: org.liveKey, body: seeded });
    for (const body of [
      { ...seeded, seed: 43 },
      { ...seeded, model: 'flux-schnell' },
      { ...seeded, prompt: 'a blue bicycle' },
      { ...seeded, aspect_ratio: '16:9' },
    ]) {
      const res = await call('POST', '/v1/images', { key: org.liveKey, body });
      assert.equal(res.status, 200);
      assert.equal(res.body.cache_hit, false, JSON.stringify(body));
      assert.ok(res.body.charged_credits > 0);
    }
    await assertLedgerBalanced(org.id);
  });

  it('never crosses organizations or environments', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    await call('POST', '/v1/images', { key: org.liveKey, body: seeded });
    assert.equal((await call('POST', '/v1/images', { key: org.testKey, body: seeded })).body.cache_hit, false);
    assert.equal((await call('POST', '/v1/images', { key: other.liveKey, body: seeded })).body.cache_hit, false);
    assert.equal((await call('POST', '/v1/images', { key: org.testKey, body: seeded })).body.cache_hit, true);
    await assertLedgerBalanced(org.id);
    await assertLedgerBalanced(other.id);
  });

  it('does not serve a failed generation, nor one older than 24 hours', async () => {
    const org = await createOrganization();
    const failing = { ...seeded, prompt: 'broken #fail' };
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: failing })).body.status, 'failed');
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: failing })).body.cache_hit, false);

    await call('POST', '/v1/images', { key: org.liveKey, body: seeded });
    const tomorrow = await startExtraApi({ clock: () => new Date(Date.now() + 24 * 3600_000 + 60_000) });
    const late = await call('POST', '/v1/images', { key: org.liveKey, body: seeded, baseUrl: tomorrow.url });
    assert.equal(late.body.cache_hit, false);
    assert.ok(late.body.charged_credits > 0);
    await assertLedgerBalanced(org.id);
  });
});
