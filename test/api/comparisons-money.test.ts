import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { assertNothingRecorded, recordsOf, waitForComparison } from '../helpers/comparisons';

// The money of comparisons (spec §4, decisions §5): the sum of the children's estimates is reserved
// at once or not at all, each child then captures or refunds its own share, and the sandbox moves
// nothing.

const THREE_IMAGES = ['flux-schnell', 'flux-dev', 'imagen-4'];

/** Each model's reservation in a comparison, in `models` order, as GET /v1/generations shows it. */
async function childReservations(key: string, comparison: { generations: { id: string }[] }): Promise<number[]> {
  return Promise.all(comparison.generations.map(async (child) => (await call('GET', `/v1/generations/${child.id}`, { key })).body.reserved_credits as number));
}

/**
 * What a comparison costs, priced the way production prices it: one run of it on a wallet of its
 * own (plan `plan`), whose 202 reserves each model's estimate. Returns each model's estimate.
 */
async function estimatesOf(body: { prompt: string; models: string[] }, plan: string): Promise<number[]> {
  const org = await createOrganization({ plan, credits: 100_000 });
  const res = await call('POST', '/v1/comparisons', { key: org.liveKey, body });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const estimates = await childReservations(org.liveKey, res.body);
  assert.equal(
    res.body.reserved_credits,
    estimates.reduce((a, b) => a + b, 0),
  );
  await waitForComparison(res.body.id, org.liveKey);
  await assertLedgerBalanced(org.id);
  return estimates;
}

async function compare(org: TestOrganization, body: unknown, key = org.liveKey) {
  const res = await call('POST', '/v1/comparisons', { key, body });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return waitForComparison(res.body.id, key);
}

describe('comparisons and the wallet', function () {
  this.timeout(90_000);

  it('admits none of three models when the wallet covers only two of their estimates: 402, nothing reserved or recorded', async () => {
    const body = { prompt: 'a lighthouse at dusk', models: THREE_IMAGES };
    const estimates = await estimatesOf(body, 'pro');
    const total = estimates.reduce((a, b) => a + b, 0);
    const credits = total - 1;
    assert.ok(credits >= total - Math.min(...estimates), 'the wallet covers any two of the three');
    const org = await createOrganization({ plan: 'pro', credits });

    const res = await call('POST', '/v1/comparisons', { key: org.liveKey, body });
    assert.equal(res.status, 402, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'insufficient_credits');
    assert.match(res.body.error.message, /^Insufficient credits/);
    await assertNothingRecorded(org, credits);

    // The two dearest models alone fit, and run.
    const dearest = THREE_IMAGES.filter((_, i) => estimates[i] !== Math.min(...estimates)).slice(0, 2);
    const pair = await compare(org, { ...body, models: dearest });
    assert.equal(pair.status, 'succeeded');
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: credits - pair.charged_credits, reservedCredits: 0 });
  });

  it('prices each model as its own endpoint would: every child reserves what a lone request of it reserves', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const paramsShared = { aspect_ratio: '16:9', num_outputs: 2 };
    const res = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'priced alike', models: THREE_IMAGES, params_shared: paramsShared } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const inComparison = await childReservations(org.liveKey, res.body);
    const alone = await Promise.all(
      THREE_IMAGES.map(async (model) => (await call('POST', '/v1/images', { key: org.liveKey, body: { model, prompt: 'priced alike', ...paramsShared } })).body.reserved_credits),
    );
    assert.deepEqual(inComparison, alone);
    await waitForComparison(res.body.id, org.liveKey);
    await assertLedgerBalanced(org.id);
  });

  it('fails only the model named by #fail:<slug>: partial, that child refunded in full, the others charged', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const done = await compare(org, { prompt: 'a fox in the snow #fail:flux-dev', models: THREE_IMAGES });
    assert.equal(done.status, 'partial');
    const reserved = await childReservations(org.liveKey, done);
    const [schnell, dev, imagen] = done.generations;
    assert.deepEqual([dev.model, dev.status, dev.error_code, dev.charged_credits, dev.refunded_credits], ['flux-dev', 'failed', 'provider_error', 0, reserved[1]]);
    assert.deepEqual(dev.outputs, []);
    assert.deepEqual(await ledgerKinds(dev.id), ['reserve', 'refund']);
    for (const [i, child] of [
      [0, schnell],
      [2, imagen],
    ] as const) {
      assert.deepEqual([child.status, child.error_code, child.charged_credits, child.refunded_credits], ['succeeded', null, reserved[i], 0]);
      assert.equal(child.outputs.length, 1);
      assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'capture']);
    }
    assert.deepEqual([done.reserved_credits, done.charged_credits, done.refunded_credits], [reserved[0]! + reserved[1]! + reserved[2]!, reserved[0]! + reserved[2]!, reserved[1]]);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000 - done.charged_credits, reservedCredits: 0 });
  });

  it('fails every model on #fail: failed, nothing charged, every reservation refunded', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const done = await compare(org, { prompt: 'nothing works #fail', models: THREE_IMAGES });
    assert.equal(done.status, 'failed');
    assert.ok(done.reserved_credits > 0);
    assert.deepEqual([done.charged_credits, done.refunded_credits], [0, done.reserved_credits]);
    const reserved = await childReservations(org.liveKey, done);
    for (const [i, child] of done.generations.entries()) {
      assert.deepEqual([child.status, child.error_code, child.charged_credits, child.refunded_credits], ['failed', 'provider_error', 0, reserved[i]]);
      assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'refund']);
    }
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('admits exactly one of two comparisons racing for a wallet that covers one, and never overspends it', async function () {
    this.timeout(120_000);
    const body = { prompt: 'two at once', models: ['flux-dev', 'imagen-4'] };
    const total = (await estimatesOf(body, 'pro')).reduce((a, b) => a + b, 0);
    const outcomes: number[][] = [];
    // Wallets that cover one comparison exactly, with a credit to spare, and all but a credit of two.
    for (const credits of [total, total + 1, 2 * total - 1, total, 2 * total - 1]) {
      const org = await createOrganization({ plan: 'pro', credits });
      const both = await Promise.all([0, 1].map(() => call('POST', '/v1/comparisons', { key: org.liveKey, body })));
      const statuses = both.map((r) => r.status);
      outcomes.push(statuses);
      assert.deepEqual([...statuses].sort(), [202, 402], JSON.stringify(both.map((r) => r.body)));
      const winner = both.find((r) => r.status === 202)!;
      const loser = both.find((r) => r.status === 402)!;
      assert.equal(loser.body.error.code, 'insufficient_credits');
      assert.equal(winner.body.reserved_credits, total);
      const done = await waitForComparison(winner.body.id, org.liveKey);
      const records = await recordsOf(org.id);
      assert.deepEqual(records.comparisons, [winner.body.id]);
      assert.deepEqual([...records.generations].sort(), done.generations.map((g: { id: string }) => g.id).sort());
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: credits - done.charged_credits, reservedCredits: 0 });
    }
    // Every round had both outcomes: one admitted, one refused (which of the two won varies).
    assert.ok(
      outcomes.every((s) => s.includes(202) && s.includes(402)),
      JSON.stringify(outcomes),
    );
  });

  describe('idempotency (decisions §9)', () => {
    const headers = () => ({ 'Idempotency-Key': `cmp-${Math.random().toString(36).slice(2)}` });

    it('replays the first answer for the same key and body: the same comparison, charged once', async () => {
      const org = await createOrganization({ plan: 'pro', credits: 100_000 });
      const key = headers();
      const body = { prompt: 'once only', models: ['flux-schnell', 'imagen-4-fast'], params_shared: { aspect_ratio: '16:9' } };
      const first = await call('POST', '/v1/comparisons', { key: org.liveKey, body, headers: key });
      assert.equal(first.status, 202, JSON.stringify(first.body));
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const again = await call('POST', '/v1/comparisons', {
        key: org.liveKey,
        body: { models: body.models, params_shared: body.params_shared, prompt: body.prompt },
        headers: key,
      });
      assert.equal(again.status, 202);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);

      const done = await waitForComparison(first.body.id, org.liveKey);
      const records = await recordsOf(org.id);
      assert.deepEqual(records.comparisons, [first.body.id]);
      assert.equal(records.generations.length, 2);
      for (const child of done.generations) assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'capture']);
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000 - done.charged_credits, reservedCredits: 0 });
    });

    it('answers 422 idempotency_key_reused for the same key with another body, or on another endpoint', async () => {
      const org = await createOrganization({ plan: 'pro', credits: 100_000 });
      const key = headers();
      const body = { prompt: 'once only', models: ['flux-schnell', 'imagen-4-fast'] };
      const first = await call('POST', '/v1/comparisons', { key: org.liveKey, body, headers: key });
      assert.equal(first.status, 202);
      const other = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { ...body, prompt: 'another' }, headers: key });
      assert.equal(other.status, 422);
      assert.equal(other.body.error.code, 'idempotency_key_reused');
      const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'once only' }, headers: key });
      assert.equal(image.status, 422);
      assert.equal(image.body.error.code, 'idempotency_key_reused');
      await waitForComparison(first.body.id, org.liveKey);
      assert.deepEqual((await recordsOf(org.id)).comparisons, [first.body.id]);
      await assertLedgerBalanced(org.id);
    });

    it('creates exactly one comparison, charged once, for 20 concurrent identical requests', async () => {
      const org = await createOrganization({ plan: 'pro', credits: 100_000 });
      const key = headers();
      const body = { prompt: 'all at once', models: ['flux-schnell', 'imagen-4-fast'] };
      const results = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/v1/comparisons', { key: org.liveKey, body, headers: key })));
      const statuses = results.map((r) => r.status);
      assert.ok(
        statuses.every((s) => s === 202 || s === 409),
        `statuses ${statuses.join(',')}`,
      );
      for (const busy of results.filter((r) => r.status === 409)) assert.equal(busy.body.error.code, 'idempotency_in_progress');
      const ids = new Set(results.filter((r) => r.status === 202).map((r) => r.body.id));
      assert.equal(ids.size, 1);
      const [id] = ids;
      const done = await waitForComparison(id!, org.liveKey);
      const records = await recordsOf(org.id);
      assert.deepEqual([records.comparisons, records.generations.length], [[id], 2]);
      for (const child of done.generations) assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'capture']);
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000 - done.charged_credits, reservedCredits: 0 });
    });

    it('does not remember a request refused by validation, and replays a 402 as the request ran', async () => {
      const org = await createOrganization({ plan: 'pro', credits: 0 });
      const body = { prompt: 'remember me', models: ['flux-schnell', 'imagen-4-fast'] };
      const key = headers();
      const bad = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { ...body, models: ['flux-schnell'] }, headers: key });
      assert.equal(bad.status, 400);
      const poor = await call('POST', '/v1/comparisons', { key: org.liveKey, body, headers: key });
      assert.deepEqual([poor.status, poor.headers.get('idempotent-replayed'), poor.body.error.code], [402, null, 'insufficient_credits']);
      const topUp = await call('POST', `/admin/v1/organizations/${org.id}/credits`, { key: stack().adminToken, body: { amount: 10_000, reason: 'top-up' } });
      assert.equal(topUp.status, 200, JSON.stringify(topUp.body));
      const replay = await call('POST', '/v1/comparisons', { key: org.liveKey, body, headers: key });
      assert.deepEqual([replay.status, replay.headers.get('idempotent-replayed')], [402, 'true']);
      assert.deepEqual(await recordsOf(org.id), { comparisons: [], generations: [], ledger: ['topup'] });
      const fresh = await call('POST', '/v1/comparisons', { key: org.liveKey, body, headers: headers() });
      assert.equal(fresh.status, 202);
      await waitForComparison(fresh.body.id, org.liveKey);
      await assertLedgerBalanced(org.id);
    });
  });

  describe('the sandbox (sk_test_ keys)', () => {
    it('runs every check, reserves and charges nothing, and runs the children on the simulator', async () => {
      const org = await createOrganization({ plan: 'free', credits: 500 });
      const tooMany = await call('POST', '/v1/comparisons', { key: org.testKey, body: { prompt: 'x', models: Array.from({ length: 13 }, (_, i) => `model-${i}`) } });
      assert.deepEqual([tooMany.status, tooMany.body.error.code], [400, 'validation_failed']);
      const overCap = await call('POST', '/v1/comparisons', { key: org.testKey, body: { prompt: 'x', models: THREE_IMAGES } });
      assert.deepEqual([overCap.status, overCap.body.error.code], [402, 'plan_upgrade_required']);
      const mixed = await call('POST', '/v1/comparisons', { key: org.testKey, body: { prompt: 'x', models: ['flux-schnell', 'gpt-5-mini'] } });
      assert.deepEqual([mixed.status, mixed.body.error.code], [400, 'modality_mismatch']);
      await assertNothingRecorded(org, 500);

      const res = await call('POST', '/v1/comparisons', { key: org.testKey, body: { prompt: 'free of charge', models: ['flux-dev', 'imagen-4'] } });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.reserved_credits, 0);
      const done = await waitForComparison(res.body.id, org.testKey);
      assert.equal(done.status, 'succeeded');
      assert.deepEqual([done.reserved_credits, done.charged_credits, done.refunded_credits], [0, 0, 0]);
      for (const child of done.generations) {
        assert.deepEqual([child.status, child.charged_credits, child.outputs.length], ['succeeded', 0, 1]);
        assert.deepEqual(await ledgerKinds(child.id), []);
      }
      assert.deepEqual((await recordsOf(org.id)).ledger, ['topup']);
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 500, reservedCredits: 0 });
    });

    it('needs no credits: an empty wallet compares with a test key, while its live key gets 402', async () => {
      const org = await createOrganization({ plan: 'pro', credits: 0 });
      const body = { prompt: 'an empty wallet', models: ['flux-schnell', 'imagen-4-fast'] };
      const live = await call('POST', '/v1/comparisons', { key: org.liveKey, body });
      assert.deepEqual([live.status, live.body.error?.code], [402, 'insufficient_credits']);
      await assertNothingRecorded(org, 0);
      assert.equal((await compare(org, body, org.testKey)).status, 'succeeded');
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 0, reservedCredits: 0 });
    });
  });
});
