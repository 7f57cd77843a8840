import assert from 'node:assert/strict';
import { freePort } from '../../lib/free-port';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { killHard, spawnApiProcess } from '../helpers/service-process';
import { stack, startExtraApi } from '../helpers/stack';

// Key budgets (decisions §4, issue 12): a key's spend this UTC month is its captured credits plus
// its reservations in flight; a request that would take it over `monthly_budget_usd` is refused
// 402 budget_exceeded and reserves nothing, however many processes admit at once; 50, 80 and 100 %
// each emit `usage.budget_threshold` once per key and month.

const IMAGE = { model: 'flux-schnell', prompt: 'a red kite over the dunes' };

/** What one IMAGE request reserves on the Pro plan, measured on a wallet of its own. */
async function imageEstimate(): Promise<number> {
  const org = await createOrganization({ plan: 'pro' });
  const res = await call('POST', '/v1/images', { key: org.liveKey, body: IMAGE });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.reserved_credits as number;
}

async function budgetedKey(org: TestOrganization, budgetUsd: number | null): Promise<{ id: string; secret: string }> {
  const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'budgeted', monthly_budget_usd: budgetUsd } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id, secret: res.body.secret };
}

async function thresholdEvents(keyId: string): Promise<{ threshold: number; budget_usd: number; spent_usd: number; period: string; api_key_id: string }[]> {
  const rows = await stack().knex('events').where({ type: 'usage.budget_threshold' }).whereLike('subject_id', `${keyId}:%`).orderBy('created_at');
  return rows.map((r: { data: never }) => r.data);
}

async function spentUsd(org: TestOrganization, keyId: string, baseUrl?: string): Promise<number> {
  const res = await call('GET', '/v1/api-keys?limit=100', { key: org.liveKey, ...(baseUrl && { baseUrl }) });
  return res.body.data.find((k: { id: string }) => k.id === keyId).spent_usd_this_month;
}

describe('API key budgets', function () {
  this.timeout(120_000);
  let estimate: number;
  before(async () => {
    estimate = await imageEstimate();
  });

  it('admits requests up to the budget, emits 50, 80 and 100 % once each, then refuses 402 budget_exceeded reserving nothing', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    // Exactly ten requests' worth (a whole number of cents).
    const budgetCredits = 10 * estimate;
    const key = await budgetedKey(org, budgetCredits / 1000);
    const fits = Math.floor(budgetCredits / estimate);
    for (let i = 0; i < fits; i++) {
      const res = await call('POST', '/v1/images', { key: key.secret, body: IMAGE });
      assert.equal(res.status, 200, `request ${i + 1}: ${JSON.stringify(res.body)}`);
    }
    assert.equal(await spentUsd(org, key.id), (fits * estimate) / 1000);
    const before = (await call('GET', '/v1/balance', { key: org.liveKey })).body;

    const refused = await call('POST', '/v1/images', { key: key.secret, body: IMAGE });
    assert.equal(refused.status, 402, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'budget_exceeded');
    assert.equal(refused.body.error.type, 'billing_error');
    assert.match(refused.body.error.message, /monthly budget is [\d.]+ USD/);
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.liveKey })).body, before, 'the refusal reserved nothing');
    const listed = await call('GET', '/v1/generations?limit=100', { key: key.secret });
    assert.equal(listed.body.data.length, fits, 'the refused request left no generation');

    const events = await thresholdEvents(key.id);
    assert.deepEqual(
      events.map((e) => e.threshold),
      [50, 80, 100],
    );
    const period = new Date().toISOString().slice(0, 7);
    for (const e of events) {
      assert.equal(e.api_key_id, key.id);
      assert.equal(e.budget_usd, budgetCredits / 1000);
      assert.equal(e.period, period);
      assert.ok(e.spent_usd * 100 >= e.threshold * e.budget_usd, `spent ${e.spent_usd} reached ${e.threshold} %`);
    }
    // Another key of the organization is not held by this key's budget.
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: IMAGE })).status, 200);
    await assertMoneyInvariants(org.id);
  });

  it('never overshoots under 20 concurrent requests through two API processes, and emits each threshold exactly once', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const budgetCredits = 10 * estimate;
    const key = await budgetedKey(org, budgetCredits / 1000);
    const port = await freePort();
    const second = await spawnApiProcess(port);
    try {
      const urls = [stack().apiUrl, `http://127.0.0.1:${port}`];
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', '/v1/images', { key: key.secret, body: IMAGE, baseUrl: urls[i % 2] })));
      const statuses = answers.map((a) => a.status);
      const admitted = statuses.filter((s) => s === 200).length;
      assert.equal(admitted, Math.floor(budgetCredits / estimate), `statuses: ${statuses.join(',')}`);
      assert.ok(
        answers.every((a) => a.status === 200 || a.body.error.code === 'budget_exceeded'),
        JSON.stringify(answers.map((a) => a.body.error?.code)),
      );
      assert.ok(admitted * estimate <= budgetCredits);
      assert.equal(await spentUsd(org, key.id, urls[1]), (admitted * estimate) / 1000);
      // Once each, in no set order: an event's created_at is when its admission's transaction began,
      // and a transaction that began first may cross a later threshold once the key's row is its turn.
      assert.deepEqual(
        (await thresholdEvents(key.id)).map((e) => e.threshold).sort((a, b) => a - b),
        [50, 80, 100],
      );
    } finally {
      await killHard(second);
    }
    await assertMoneyInvariants(org.id);
  });

  it("gives back a failed generation's reservation to the month's spend, and a null budget removes the limit", async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const budgetCredits = 10 * estimate;
    const key = await budgetedKey(org, budgetCredits / 1000);
    const failed = await call('POST', '/v1/images', { key: key.secret, body: { ...IMAGE, prompt: 'a kite #fail' } });
    await waitForGeneration(failed.body.id, key.secret);
    assert.equal(await spentUsd(org, key.id), 0, 'a refund leaves nothing spent');
    const fits = Math.floor(budgetCredits / estimate);
    for (let i = 0; i < fits; i++) assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 200);
    assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 402);

    const cleared = await call('PATCH', `/v1/api-keys/${key.id}`, { key: org.liveKey, body: { monthly_budget_usd: null } });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal(cleared.body.monthly_budget_usd, null);
    assert.equal(cleared.body.spent_usd_this_month, (fits * estimate) / 1000, 'the spend is still shown without a budget');
    assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 200);
    await assertMoneyInvariants(org.id);
  });

  it('refuses a comparison whose models together would cross the budget though one of them would fit, reserving none of them', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const key = await budgetedKey(org, (10 * estimate) / 1000);
    for (let i = 0; i < 9; i++) assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 200);
    const before = (await call('GET', '/v1/balance', { key: org.liveKey })).body;
    const res = await call('POST', '/v1/comparisons', { key: key.secret, body: { prompt: 'a kite', models: ['flux-schnell', 'flux-dev'] } });
    assert.equal(res.status, 402, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'budget_exceeded');
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.liveKey })).body, before);
    assert.equal((await call('GET', '/v1/generations?limit=100', { key: key.secret })).body.data.length, 9, 'no child was recorded');
    assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 200, 'the last tenth still fits one image');
    await assertMoneyInvariants(org.id);
  });

  it("starts a new month at zero: a key that spent its whole budget is admitted again once the API's clock is in the next UTC month", async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const budgetCredits = 10 * estimate;
    const key = await budgetedKey(org, budgetCredits / 1000);
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 5));
    const later = await startExtraApi({ clock: () => nextMonth });
    for (let i = 0; i < 10; i++) assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 200);
    assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE })).status, 402);

    assert.equal(await spentUsd(org, key.id, later.url), 0, 'nothing spent yet in the next month');
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/v1/images', { key: key.secret, body: IMAGE, baseUrl: later.url });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    assert.equal(await spentUsd(org, key.id, later.url), budgetCredits / 1000);
    assert.equal((await call('POST', '/v1/images', { key: key.secret, body: IMAGE, baseUrl: later.url })).status, 402);
    const month = (d: Date) => d.toISOString().slice(0, 7);
    const periods = (await thresholdEvents(key.id)).map((e) => `${e.period}:${e.threshold}`);
    assert.deepEqual(
      periods,
      [month(now), month(nextMonth)].flatMap((m) => [50, 80, 100].map((t) => `${m}:${t}`)),
    );
    await assertMoneyInvariants(org.id);
  });

  it('never holds back test keys: the sandbox spends nothing, whatever the budget', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const created = await call('POST', '/v1/api-keys', { key: org.testKey, body: { name: 'sandbox', monthly_budget_usd: 0 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (let i = 0; i < 3; i++) assert.equal((await call('POST', '/v1/images', { key: created.body.secret, body: IMAGE })).status, 200);
    const listed = await call('GET', '/v1/api-keys', { key: org.testKey });
    assert.equal(listed.body.data.find((k: { id: string }) => k.id === created.body.id).spent_usd_this_month, 0);
  });
});
