import assert from 'node:assert/strict';
import sharp from 'sharp';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';

// flux-dev is 25 credits per megapixel; 1:1 is 1024x1024 = 1.048576 Mpx; Pro multiplies by 1.6.
const FLUX_DEV_1_1_PRO = Math.ceil(1.048576 * 25 * 1.6); // 42

async function downloadPng(url: string) {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'image/png');
  return sharp(Buffer.from(await response.arrayBuffer())).metadata();
}

describe('POST /v1/images', () => {
  it('generates synchronously, returns downloadable PNGs of the requested size and charges the estimate', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const res = await call('POST', '/v1/images', {
      key: org.liveKey,
      body: { model: 'flux-dev', prompt: 'a lighthouse at dawn', aspect_ratio: '16:9', num_outputs: 2, seed: 7 },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'generation');
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.modality, 'image');
    assert.match(res.body.id, /^gen_/);
    const expected = Math.ceil(2 * ((1344 * 756) / 1e6) * 25 * 1.6);
    assert.equal(res.body.reserved_credits, expected);
    assert.equal(res.body.charged_credits, expected);
    assert.equal(res.body.refunded_credits, 0);
    assert.equal(res.body.cache_hit, false);
    assert.deepEqual(res.body.params, { aspect_ratio: '16:9', num_outputs: 2, seed: 7 });
    assert.equal(res.body.outputs.length, 2);
    for (const output of res.body.outputs) {
      assert.match(output.id, /^out_/);
      assert.equal(output.mime, 'image/png');
      assert.equal(output.width, 1344);
      assert.equal(output.height, 756);
      const meta = await downloadPng(output.url);
      assert.equal(meta.format, 'png');
      assert.equal(meta.width, 1344);
      assert.equal(meta.height, 756);
    }
    assert.ok(res.headers.get('x-request-id')?.startsWith('req_'));

    const wallet = await assertLedgerBalanced(org.id);
    assert.deepEqual(wallet, { availableCredits: 10_000 - expected, reservedCredits: 0 });
    assert.deepEqual(await ledgerKinds(res.body.id), ['reserve', 'capture']);
    const events = await stack().repos.events.listForSubject(res.body.id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['generation.completed'],
    );
    assert.deepEqual(events[0]?.data, { generation_id: res.body.id, modality: 'image', status: 'succeeded', charged_credits: expected, sequence: 3 });
  });

  it('makes the same image for the same seed and a different one for another seed', async () => {
    const org = await createOrganization();
    const run = async (seed: number) => {
      const res = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'same', seed } });
      const response = await fetch(res.body.outputs[0].url);
      return Buffer.from(await response.arrayBuffer());
    };
    const [a, b, c] = [await run(1), await run(1), await run(2)];
    assert.ok(a.equals(b));
    assert.ok(!a.equals(c));
  });

  it('applies the plan multiplier: the same request costs 1x on Free and 1.6x on Pro', async () => {
    const free = await createOrganization({ plan: 'free', credits: 1000 });
    const pro = await createOrganization({ plan: 'pro', credits: 1000 });
    const body = { model: 'imagen-4', prompt: 'a fox' };
    const onFree = await call('POST', '/v1/images', { key: free.liveKey, body });
    const onPro = await call('POST', '/v1/images', { key: pro.liveKey, body });
    assert.equal(onFree.body.charged_credits, 40);
    assert.equal(onPro.body.charged_credits, 64);
    assert.deepEqual(await assertLedgerBalanced(free.id), { availableCredits: 960, reservedCredits: 0 });
    assert.deepEqual(await assertLedgerBalanced(pro.id), { availableCredits: 936, reservedCredits: 0 });
  });

  it('answers 402 insufficient_credits when the wallet cannot cover the estimate, and moves nothing', async () => {
    const org = await createOrganization({ credits: FLUX_DEV_1_1_PRO - 1 });
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt: 'too expensive' } });
    assert.equal(res.status, 402);
    assert.equal(res.body.error.type, 'billing_error');
    assert.equal(res.body.error.code, 'insufficient_credits');
    assert.match(res.body.error.message, /^Insufficient credits/);
    const wallet = await assertLedgerBalanced(org.id);
    assert.deepEqual(wallet, { availableCredits: FLUX_DEV_1_1_PRO - 1, reservedCredits: 0 });
    const generations = await stack().knex('generations').where({ organization_id: org.id });
    assert.equal(generations.length, 0);
  });

  it('admits a request that costs exactly the available balance', async () => {
    const org = await createOrganization({ credits: FLUX_DEV_1_1_PRO });
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt: 'exact fit' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 0, reservedCredits: 0 });
  });

  it('answers 402 plan_upgrade_required for a Studio+ model on a Pro plan, and allows it on Studio', async () => {
    const pro = await createOrganization({ plan: 'pro' });
    const denied = await call('POST', '/v1/images', { key: pro.liveKey, body: { model: 'flux-1.1-pro-ultra', prompt: 'x' } });
    assert.equal(denied.status, 402);
    assert.equal(denied.body.error.code, 'plan_upgrade_required');
    assert.equal(denied.body.error.param, 'model');
    assert.deepEqual(await assertLedgerBalanced(pro.id), { availableCredits: 100_000, reservedCredits: 0 });

    const studio = await createOrganization({ plan: 'studio' });
    const allowed = await call('POST', '/v1/images', { key: studio.liveKey, body: { model: 'flux-1.1-pro-ultra', prompt: 'x' } });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.body.charged_credits, 96);
    assert.deepEqual(await assertLedgerBalanced(studio.id), { availableCredits: 100_000 - 96, reservedCredits: 0 });
  });

  it('refunds the whole reservation when the provider fails (#fail)', async () => {
    const org = await createOrganization({ credits: 1000 });
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt: 'break #fail' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.error_code, 'provider_error');
    assert.match(res.body.error_message, /#fail/);
    assert.equal(res.body.reserved_credits, FLUX_DEV_1_1_PRO);
    assert.equal(res.body.charged_credits, 0);
    assert.equal(res.body.refunded_credits, res.body.reserved_credits);
    assert.deepEqual(res.body.outputs, []);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000, reservedCredits: 0 });
    assert.deepEqual(await ledgerKinds(res.body.id), ['reserve', 'refund']);
    const events = await stack().repos.events.listForSubject(res.body.id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['generation.failed'],
    );
  });

  it('answers 202 when the job outlives SYNC_TIMEOUT_MS, then succeeds by polling', async () => {
    const api = await startExtraApi({ syncTimeoutMs: 300 });
    const org = await createOrganization({ credits: 1000 });
    const res = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: api.url, body: { model: 'flux-dev', prompt: 'patience #slow:1500' } });
    assert.equal(res.status, 202);
    assert.ok(['queued', 'running'].includes(res.body.status));
    assert.equal(res.body.reserved_credits, FLUX_DEV_1_1_PRO);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000 - FLUX_DEV_1_1_PRO, reservedCredits: FLUX_DEV_1_1_PRO });

    const done = await waitForGeneration(res.body.id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.outputs.length, 1);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000 - FLUX_DEV_1_1_PRO, reservedCredits: 0 });
    await api.close();
  });

  it('runs test keys through every check but never charges them', async () => {
    const org = await createOrganization({ credits: 500 });
    const res = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-dev', prompt: 'sandbox', num_outputs: 4 } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.reserved_credits, 0);
    assert.equal(res.body.charged_credits, 0);
    assert.equal(res.body.outputs.length, 4);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 500, reservedCredits: 0 });

    // Test keys still get every validation and plan check.
    const invalid = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-dev', prompt: 'x', num_outputs: 5 } });
    assert.equal(invalid.status, 400);
    const gated = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-1.1-pro-ultra', prompt: 'x' } });
    assert.equal(gated.status, 402);
  });

  it('keeps test and live generations apart, and organizations apart', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const sandbox = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'mine' } });
    const live = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'mine' } });

    assert.equal((await call('GET', `/v1/generations/${sandbox.body.id}`, { key: org.testKey })).status, 200);
    assert.equal((await call('GET', `/v1/generations/${live.body.id}`, { key: org.liveKey })).status, 200);
    for (const [id, key] of [
      [sandbox.body.id, org.liveKey],
      [live.body.id, org.testKey],
      [live.body.id, other.liveKey],
      [sandbox.body.id, other.testKey],
    ]) {
      const res = await call('GET', `/v1/generations/${id}`, { key });
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'resource_not_found');
    }
  });
});
