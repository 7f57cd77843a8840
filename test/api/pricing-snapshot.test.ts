import assert from 'node:assert/strict';
import { findModel } from '../../domain/catalog';
import { CATALOG_VERSION } from '../../domain/catalog-version';
import { PLAN_MULTIPLIER_TENTHS, type Plan } from '../../domain/plans';
import { billedQuantity, creditsAtPrice, creditsFor, deliveredQuantity, type BilledQuantity, type UnitPrice } from '../../domain/pricing';
import { call, createOrganization, waitFor, waitForGeneration, type HttpResult, type TestOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// The price snapshot (issue 42): a generation records the catalog entry's pricing and the plan
// multiplier it was admitted at, shows it as `pricing`, and is charged at it however the catalog
// changes while it runs. The catalog is code loaded once per process (domain/catalog-data.ts), with
// no route or file reload to change it at run time; the stack's workers run in this process, so a
// test changes the entry in place between the reservation and the capture, which is what a worker
// running a newer catalog sees (and restores it after).

/** Runs `body` with the model's catalog price replaced, as a newer catalog would have it. */
async function withCatalogPrice<T>(slug: string, creditsPerUnit: number, body: () => Promise<T>): Promise<T> {
  const entry = findModel(slug)!;
  const original = entry.pricing.creditsPerUnit;
  entry.pricing.creditsPerUnit = creditsPerUnit;
  try {
    return await body();
  } finally {
    entry.pricing.creditsPerUnit = original;
  }
}

/**
 * The organization's only generation, once it is admitted (its row is written with the reservation)
 * and while `pending`, its request, still waits for it; a request answered first failed the test.
 */
async function admittedGeneration(org: TestOrganization, pending: Promise<HttpResult>): Promise<string> {
  const admitted = waitFor(
    async () => {
      const listed = await call('GET', '/v1/generations?limit=1', { key: org.liveKey });
      return listed.body.data[0]?.id as string | undefined;
    },
    20_000,
    'the generation to be admitted',
  );
  const answeredFirst = pending.then((res) => Promise.reject(new Error(`answered before the test changed the price: ${res.status} ${JSON.stringify(res.body)}`)));
  answeredFirst.catch(() => undefined);
  return Promise.race([admitted, answeredFirst]);
}

/** What the ledger rows of a generation took from the wallet in all: reserve, then capture or refund. */
async function ledgerSpent(generationId: string): Promise<number> {
  const rows = await stack().knex('ledger_entries').where({ generation_id: generationId });
  return -rows.reduce((sum, r: { available_delta: string | number; reserved_delta: string | number }) => sum + Number(r.available_delta) + Number(r.reserved_delta), 0);
}

/** What a finished Generation delivered, in its snapshot's unit: its files, or chat's reported tokens. */
function deliveredIn(gen: { pricing: UnitPrice; outputs: { width?: number; height?: number; duration_s?: string }[]; usage?: { output_tokens: number } }): BilledQuantity {
  if (gen.pricing.unit === '1m_output_tokens') return billedQuantity(gen.pricing.unit, { outputTokens: gen.usage!.output_tokens });
  return deliveredQuantity(
    gen.pricing.unit,
    gen.outputs.map((o) => ({ ...(o.width !== undefined && { width: o.width, height: o.height }), ...(o.duration_s !== undefined && { durationS: o.duration_s }) })),
  )!;
}

/** The snapshot a job of this model on this plan should record: the catalog's price as GET /v1/models lists it. */
async function expectedSnapshot(key: string, slug: string, plan: Plan) {
  const listed = await call('GET', '/v1/models', { key });
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const model = (listed.body.data as { slug: string; pricing: object }[]).find((m) => m.slug === slug)!;
  return { ...model.pricing, plan_multiplier: PLAN_MULTIPLIER_TENTHS[plan] / 10, catalog_version: CATALOG_VERSION };
}

describe('price snapshots', function () {
  this.timeout(120_000);

  it('the Generation shows the catalog entry and plan multiplier it was priced at, for each plan and unit', async () => {
    const cases: { plan: Plan; path: string; body: object; slug: string }[] = [
      { plan: 'free', path: '/v1/images', slug: 'flux-dev', body: { model: 'flux-dev', prompt: 'a lighthouse' } },
      { plan: 'pro', path: '/v1/chat', slug: 'gpt-5-mini', body: { model: 'gpt-5-mini', messages: [{ content: 'hello' }], max_tokens: 100 } },
      { plan: 'team', path: '/v1/videos', slug: 'hailuo-02', body: { model: 'hailuo-02', prompt: 'a lighthouse in fog' } },
      { plan: 'pro', path: '/v1/images', slug: 'flux-schnell', body: { model: 'flux-schnell', prompt: 'a harbour' } },
    ];
    assert.match(CATALOG_VERSION, /^[0-9a-f]{16}$/);
    for (const { plan, path, body, slug } of cases) {
      const org = await createOrganization({ plan, credits: 100_000 });
      const res = await call('POST', path, { key: org.liveKey, body });
      assert.ok([200, 202].includes(res.status), JSON.stringify(res.body));
      const gen = await waitForGeneration(res.body.id, org.liveKey);
      const expected = await expectedSnapshot(org.liveKey, slug, plan);
      assert.deepEqual(gen.pricing, expected, `${slug} on ${plan}`);
      // And it was charged at it: what was delivered, in the snapshot's unit, at its price and multiplier.
      assert.ok(gen.charged_credits > 0);
      assert.equal(gen.charged_credits, creditsAtPrice(deliveredIn(gen), gen.pricing), `${slug} on ${plan}`);
      await assertMoneyInvariants(org.id);
    }
  });

  it("a comparison's children each record their own model's price", async () => {
    const org = await createOrganization({ plan: 'studio', credits: 100_000 });
    const res = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'a lighthouse at dusk', models: ['flux-schnell', 'flux-dev'] } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    for (const child of res.body.generations as { id: string; model: string }[]) {
      const gen = await waitForGeneration(child.id, org.liveKey);
      assert.deepEqual(gen.pricing, await expectedSnapshot(org.liveKey, child.model, 'studio'), child.model);
    }
    await assertMoneyInvariants(org.id);
  });

  it("a price change between reservation and capture leaves a delivery's charge at the snapshot's price", async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const pending = call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt: 'a lighthouse #slow:3000' } });
    const id = await admittedGeneration(org, pending);
    const res = await withCatalogPrice('flux-dev', 1, async () => {
      const answer = await pending;
      // The capture has been written once the answer is 200 (a finished generation).
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer;
    });
    assert.equal(res.body.id, id);
    assert.equal(res.body.status, 'succeeded');
    assert.deepEqual(res.body.pricing, await expectedSnapshot(org.liveKey, 'flux-dev', 'pro'));
    const delivered = deliveredQuantity(
      'megapixel',
      (res.body.outputs as { width: number; height: number }[]).map(({ width, height }) => ({ width, height })),
    )!;
    const atSnapshot = creditsFor(delivered, 25, 'pro');
    assert.ok(creditsFor(delivered, 1, 'pro') < atSnapshot, 'the new price would charge less');
    assert.equal(res.body.charged_credits, atSnapshot);
    assert.equal(await ledgerSpent(id), atSnapshot);
    await assertMoneyInvariants(org.id);
  });

  it("a video admitted before a price change is charged for its produced seconds at the snapshot's price", async () => {
    const org = await createOrganization({ plan: 'team', credits: 100_000 });
    // 202: answered once the reservation is written; the job then runs for 3 s more.
    const accepted = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a lighthouse in fog #slow:3000' } });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const gen = await withCatalogPrice('hailuo-02', 4, () => waitForGeneration(accepted.body.id, org.liveKey));
    assert.equal(gen.status, 'succeeded');
    assert.deepEqual(gen.pricing, await expectedSnapshot(org.liveKey, 'hailuo-02', 'team'));
    const seconds = deliveredIn(gen);
    const atSnapshot = creditsFor(seconds, 45, 'team');
    // A price cut, so that the new price would charge less (a rise would be capped at the reservation).
    assert.ok(creditsFor(seconds, 4, 'team') < atSnapshot);
    assert.equal(gen.charged_credits, atSnapshot);
    assert.equal(await ledgerSpent(gen.id), atSnapshot);
    await assertMoneyInvariants(org.id);
  });

  it("a chat charged on its reported tokens is charged at the snapshot's price per token", async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const pending = call('POST', '/v1/chat', {
      key: org.liveKey,
      body: { model: 'gpt-5-mini', messages: [{ content: 'tell me #slow:3000 #tokens:5000' }], max_tokens: 8_000 },
    });
    const id = await admittedGeneration(org, pending);
    const res = await withCatalogPrice('gpt-5-mini', 200, async () => {
      const answer = await pending;
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer;
    });
    assert.equal(res.body.object, 'chat.completion');
    assert.equal(res.body.usage.output_tokens, 5000);
    const tokens = billedQuantity('1m_output_tokens', { outputTokens: 5000 });
    const atSnapshot = creditsFor(tokens, 2_000, 'pro');
    assert.equal(atSnapshot, 16);
    assert.notEqual(creditsFor(tokens, 200, 'pro'), atSnapshot);
    assert.equal(res.body.charged_credits, atSnapshot);
    assert.equal(res.body.reserved_credits, creditsFor(billedQuantity('1m_output_tokens', { outputTokens: 8_000 }), 2_000, 'pro'));
    const gen = await waitForGeneration(id, org.liveKey);
    assert.deepEqual(gen.pricing, await expectedSnapshot(org.liveKey, 'gpt-5-mini', 'pro'));
    assert.equal(await ledgerSpent(id), atSnapshot);
    await assertMoneyInvariants(org.id);
  });

  it('a generation from before snapshots shows pricing: null', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'an old one' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // As db/migrations/0027-pricing-snapshots.ts leaves every row written before it.
    await stack().knex('generations').where({ id: res.body.id }).update({ pricing: null });
    const gen = await call('GET', `/v1/generations/${res.body.id}`, { key: org.liveKey });
    assert.equal(gen.status, 200);
    assert.equal(gen.body.pricing, null);
    await assertMoneyInvariants(org.id);
  });
});

describe('X-Gateway-Overhead-Ms', function () {
  this.timeout(120_000);

  const overheadOf = (headers: Headers) => headers.get('x-gateway-overhead-ms');

  it('a sync answer carries it: an integer, at least 0, below the time the client measured less the provider call', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    for (const [path, body] of [
      ['/v1/images', { model: 'flux-schnell', prompt: 'a lighthouse #slow:1500' }],
      ['/v1/chat', { model: 'gpt-5-mini', messages: [{ content: 'hello #slow:1500' }], max_tokens: 100 }],
      ['/v1/openai/chat/completions', { model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hello #slow:1500' }], max_tokens: 100 }],
    ] as const) {
      const started = performance.now();
      const res = await call('POST', path, { key: org.liveKey, body });
      const clientMs = performance.now() - started;
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      const header = overheadOf(res.headers);
      assert.ok(header !== null, `${path} answers X-Gateway-Overhead-Ms`);
      assert.match(header, /^\d+$/);
      // The provider's 1.5 s (the simulator's #slow) is in its recorded attempt, not in the overhead.
      assert.ok(Number(header) <= clientMs - 1500, `${path}: overhead ${header} ms of ${Math.round(clientMs)} ms, 1500 of them the provider's`);
    }
    await assertMoneyInvariants(org.id);
  });

  it('a 202 answer carries none', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const res = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a lighthouse in fog' } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(overheadOf(res.headers), null);
    await waitForGeneration(res.body.id, org.liveKey);
    await assertMoneyInvariants(org.id);
  });
});
