import assert from 'node:assert/strict';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { randomBase62 } from '../../lib/ids';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { ledgerKinds } from '../helpers/ledger';
import { waitForComparison } from '../helpers/comparisons';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { providerDoublesRegistry } from '../helpers/provider-doubles';
import { stack, startExtraApi } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// Issue 33 item 3, decisions §7: a live key never pays for simulated output. In live mode (the
// default everywhere but `npm start`'s embedded mode) a live request whose model has no usable
// provider is refused before anything is reserved; in simulated mode, the operator's explicit
// permission, it runs on the simulator and is charged 0 — nothing reserved, the wallet untouched —
// and says `provider: "simulator"`. Each request is checked on its own: a comparison's children,
// the cache.

/** What the organization's wallet and ledger hold, to compare before and after. */
async function moneyOf(org: TestOrganization) {
  const balance = await call('GET', '/v1/balance', { key: org.liveKey });
  const ledger = await stack().knex('ledger_entries').where({ organization_id: org.id }).orderBy('id').select('kind', 'available_delta', 'reserved_delta');
  return { available: balance.body.available_credits, reserved: balance.body.reserved_credits, ledger };
}

describe('PROVIDER_MODE=live: a live request with no configured provider', () => {
  it('is refused 503 provider_unavailable before anything is reserved, even with other providers configured', async () => {
    // The case: some provider keys set (fal), none for the voice model's provider.
    const api = await startExtraApi({ routing: { providerMode: 'live', configuredProviders: ['fal'] } });
    const org = await createOrganization({ plan: 'pro', credits: 5_000 });
    const before = await moneyOf(org);
    const res = await call('POST', '/v1/voice', { key: org.liveKey, baseUrl: api.url, body: { model: 'eleven-multilingual-v2', text: 'hello there' } });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'provider_unavailable');
    assert.match(res.body.error.message, /none of its providers \(elevenlabs\) has credentials/);
    assert.match(res.body.error.message, /never run on the simulator/);
    assert.deepEqual(await moneyOf(org), before);
    assert.equal((await stack().knex('generations').where({ organization_id: org.id })).length, 0);
    const models = await call('GET', '/v1/models', { key: org.liveKey, baseUrl: api.url });
    const voice = models.body.data.find((m: { slug: string }) => m.slug === 'eleven-multilingual-v2');
    assert.deepEqual([voice.available, voice.providers], [false, []]);
    await assertMoneyInvariants(org.id);
  });
});

describe('PROVIDER_MODE=simulated: a live request with no configured provider', function () {
  this.timeout(90_000);
  let worker: { stop(): Promise<void> };
  let simulatedApi: { url: string };
  const taskQueue = `simulated-live-${randomBase62(8)}`;

  before(async () => {
    // The plain simulator: no real provider can serve anything on this queue.
    worker = await startTestWorker(taskQueue, {
      providers: createProviderRegistry({ simulator: createSimulator({ asyncLatencyMs: 300 }), providerMode: 'simulated' }),
    });
    simulatedApi = await startExtraApi({ taskQueue, routing: { providerMode: 'simulated', configuredProviders: [] } });
  });
  after(async () => worker?.stop());

  it('runs on the simulator for 0 credits: nothing reserved, wallet and ledger untouched, provider "simulator"', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 5_000 });
    const before = await moneyOf(org);
    const image = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: simulatedApi.url, body: { model: 'flux-schnell', prompt: 'a fox' } });
    assert.equal(image.status, 200, JSON.stringify(image.body));
    assert.equal(image.body.status, 'succeeded');
    assert.equal(image.body.provider, 'simulator');
    assert.equal(image.body.provider_model, 'flux-schnell');
    assert.deepEqual([image.body.reserved_credits, image.body.charged_credits, image.body.refunded_credits], [0, 0, 0]);
    assert.equal(image.body.outputs.length, 1);

    // An async job too: accepted, finished, charged nothing.
    const video = await call('POST', '/v1/videos', { key: org.liveKey, baseUrl: simulatedApi.url, body: { model: 'hailuo-02', prompt: 'waves', duration_s: 6 } });
    assert.equal(video.status, 202, JSON.stringify(video.body));
    const done = await waitForGeneration(video.body.id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.provider, 'simulator');
    assert.deepEqual([done.reserved_credits, done.charged_credits], [0, 0]);

    assert.deepEqual(await ledgerKinds(image.body.id), []);
    assert.deepEqual(await ledgerKinds(video.body.id), []);
    assert.deepEqual(await moneyOf(org), before);
    const models = await call('GET', '/v1/models', { key: org.liveKey, baseUrl: simulatedApi.url });
    const flux = models.body.data.find((m: { slug: string }) => m.slug === 'flux-schnell');
    assert.deepEqual([flux.available, flux.providers], [true, ['simulator']]);
    await assertMoneyInvariants(org.id);
  });

  it('still runs every check: an empty wallet is no reason to refuse, but the plan and the request still are', async () => {
    const broke = await createOrganization({ plan: 'pro', credits: 0 });
    const free = await call('POST', '/v1/images', { key: broke.liveKey, baseUrl: simulatedApi.url, body: { model: 'flux-schnell', prompt: 'free' } });
    assert.equal(free.status, 200, JSON.stringify(free.body));
    assert.equal(free.body.charged_credits, 0);

    const onFree = await createOrganization({ plan: 'free', credits: 5_000 });
    const studio = await call('POST', '/v1/videos', { key: onFree.liveKey, baseUrl: simulatedApi.url, body: { model: 'veo-3', prompt: 'x', duration_s: 8 } });
    assert.equal(studio.status, 402, JSON.stringify(studio.body));
    assert.equal(studio.body.error.code, 'plan_upgrade_required');
    const invalid = await call('POST', '/v1/images', { key: onFree.liveKey, baseUrl: simulatedApi.url, body: { model: 'flux-schnell', prompt: 'x', num_outputs: 99 } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.code, 'validation_failed');
    await assertMoneyInvariants(broke.id);
    await assertMoneyInvariants(onFree.id);
  });

  it('prices a comparison per child: the child on a configured provider is charged, the simulated one 0', async () => {
    // fal is configured here and stood in for by the simulator; gpt-image-1's provider (openai) is not.
    const queue = `simulated-mixed-${randomBase62(8)}`;
    const mixedWorker = await startTestWorker(queue, { providers: providerDoublesRegistry() });
    try {
      const api = await startExtraApi({ taskQueue: queue, routing: { providerMode: 'simulated', configuredProviders: ['fal'] } });
      const org = await createOrganization({ plan: 'pro', credits: 5_000 });
      const accepted = await call('POST', '/v1/comparisons', {
        key: org.liveKey,
        baseUrl: api.url,
        body: { prompt: 'a harbour', models: ['flux-schnell', 'gpt-image-1'] },
      });
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
      const done = await waitForComparison(accepted.body.id, org.liveKey);
      assert.equal(done.status, 'succeeded');
      const children = await Promise.all(done.generations.map(async (g: { id: string }) => (await call('GET', `/v1/generations/${g.id}`, { key: org.liveKey })).body));
      const bySlug: Record<string, any> = Object.fromEntries(children.map((g: { model: string }) => [g.model, g]));
      assert.equal(bySlug['flux-schnell'].provider, 'fal');
      assert.ok(bySlug['flux-schnell'].charged_credits > 0);
      assert.deepEqual(await ledgerKinds(bySlug['flux-schnell'].id), ['reserve', 'capture']);
      assert.equal(bySlug['gpt-image-1'].provider, 'simulator');
      assert.deepEqual([bySlug['gpt-image-1'].reserved_credits, bySlug['gpt-image-1'].charged_credits], [0, 0]);
      assert.deepEqual(await ledgerKinds(bySlug['gpt-image-1'].id), []);
      assert.equal(done.charged_credits, bySlug['flux-schnell'].charged_credits);
      const balance = await call('GET', '/v1/balance', { key: org.liveKey });
      assert.equal(balance.body.available_credits, 5_000 - bySlug['flux-schnell'].charged_credits);
      await assertMoneyInvariants(org.id);
    } finally {
      await mixedWorker.stop();
    }
  });

  it('never serves its simulated output from the cache to a request that is charged', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 5_000 });
    const body = { model: 'flux-dev', prompt: 'a cached fox', seed: 7 };
    const simulated = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: simulatedApi.url, body });
    assert.equal(simulated.status, 200, JSON.stringify(simulated.body));
    assert.deepEqual([simulated.body.provider, simulated.body.charged_credits], ['simulator', 0]);
    // The same seeded request where flux-dev's provider is configured (the stack's API): a real run, charged.
    const paid = await call('POST', '/v1/images', { key: org.liveKey, body });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.cache_hit, false);
    assert.equal(paid.body.provider, 'fal');
    assert.ok(paid.body.charged_credits > 0);
    // A simulated repeat is served its own simulated output, for 0 as ever.
    const repeat = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: simulatedApi.url, body });
    assert.equal(repeat.body.cache_hit, true);
    assert.equal(repeat.body.charged_credits, 0);
    const paidAgain = await call('POST', '/v1/images', { key: org.liveKey, body });
    assert.equal(paidAgain.body.cache_hit, true);
    assert.deepEqual(
      paidAgain.body.outputs.map((o: { url: string }) => new URL(o.url).pathname),
      paid.body.outputs.map((o: { url: string }) => new URL(o.url).pathname),
    );
    await assertMoneyInvariants(org.id);
  });
});
