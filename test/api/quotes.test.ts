import assert from 'node:assert/strict';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// Issue 42 item 2: a price ceiling (`max_credits`) on every creation body, and POST /v1/quotes, a
// dry run answering the exact reservation the same request then makes, refusing what it refuses.

type Body = Record<string, unknown>;

async function quote(key: string, endpoint: string, body: Body) {
  return call('POST', '/v1/quotes', { key, body: { endpoint, body } });
}

async function reserveRow(generationId: string): Promise<number | undefined> {
  const row = await stack().knex('ledger_entries').where({ generation_id: generationId, kind: 'reserve' }).first('reserved_delta');
  return row && Number(row.reserved_delta);
}

async function snapshot(org: TestOrganization) {
  const ledger = await stack().knex('ledger_entries').where({ organization_id: org.id }).count<{ count: string }[]>('* as count');
  const generations = await stack().knex('generations').where({ organization_id: org.id }).count<{ count: string }[]>('* as count');
  const balance = (await call('GET', '/v1/balance', { key: org.liveKey })).body;
  return { ledger: Number(ledger[0]!.count), generations: Number(generations[0]!.count), balance };
}

async function settle(key: string, id: string) {
  await waitForGeneration(id, key, ['succeeded', 'failed', 'canceled'], 60_000);
}

/** One request per pricing unit of the catalog (domain/catalog-types.ts PRICING_UNITS). */
const PER_UNIT: { unit: string; endpoint: string; body: Body | ((inputs: { imageUrl: string; audioUrl: string }) => Body) }[] = [
  { unit: 'megapixel', endpoint: '/v1/images', body: { model: 'flux-schnell', prompt: 'a red kite', aspect_ratio: '16:9', num_outputs: 2 } },
  { unit: 'image', endpoint: '/v1/images', body: { model: 'imagen-4-fast', prompt: 'a red kite', num_outputs: 3 } },
  { unit: 'second (video)', endpoint: '/v1/videos', body: { model: 'hailuo-02', prompt: 'surf at dawn', duration_s: 6 } },
  { unit: '1k_characters', endpoint: '/v1/voice', body: { model: 'openai-tts-1', text: 'Hello there, this sentence is priced per thousand characters.' } },
  { unit: 'song', endpoint: '/v1/music', body: { model: 'minimax-music-v2', prompt: 'a calm piano piece', duration_s: 30 } },
  { unit: 'second (music)', endpoint: '/v1/music', body: { model: 'ace-step', prompt: 'a calm piano piece', duration_s: 47 } },
  { unit: 'second (avatar)', endpoint: '/v1/avatars', body: { model: 'veed-avatars', text: 'Welcome to the tour.', avatar_id: 'ava_emily' } },
  { unit: '1m_output_tokens', endpoint: '/v1/chat', body: { model: 'gpt-5-mini', messages: [{ role: 'user', content: 'Say hi.' }], max_tokens: 777 } },
  {
    unit: '1m_output_tokens (OpenAI)',
    endpoint: '/v1/openai/chat/completions',
    body: { model: 'claude-haiku-4.5', messages: [{ role: 'user', content: 'Say hi.' }], max_tokens: 333 },
  },
  { unit: '3d_model', endpoint: '/v1/three-d', body: { model: 'tripo-v2.5-text', prompt: 'a teapot' } },
  { unit: 'minute', endpoint: '/v1/voice', body: ({ audioUrl }) => ({ model: 'whisper-1', operation: 'transcription', audio_url: audioUrl }) },
  { unit: 'megapixel (upscale)', endpoint: '/v1/upscale', body: ({ imageUrl }) => ({ model: 'codeformer', image_url: imageUrl, scale_factor: '4' }) },
];

describe('price ceiling (max_credits) and quotes (POST /v1/quotes)', function () {
  this.timeout(600_000);
  let inputs: { imageUrl: string; audioUrl: string };
  before(async () => {
    const org = await createOrganization({ plan: 'pro' });
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a still' } });
    const speech = await call('POST', '/v1/voice', {
      key: org.liveKey,
      body: { model: 'openai-tts-1', text: 'A sentence to transcribe, long enough to cost more than one credit. '.repeat(30) },
    });
    inputs = { imageUrl: image.body.outputs[0].url, audioUrl: speech.body.outputs[0].url };
  });

  for (const { unit, endpoint, body: bodyOf } of PER_UNIT) {
    it(`${unit}: the quote is the reservation; max_credits one under it is refused 402 max_cost_exceeded leaving the ledger untouched; exactly equal runs`, async () => {
      const org = await createOrganization({ plan: 'pro' });
      const body = typeof bodyOf === 'function' ? bodyOf(inputs) : bodyOf;
      const quoted = await quote(org.liveKey, endpoint, body);
      assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
      const credits = quoted.body.credits as number;
      assert.ok(credits > 1, `a priced request: ${credits}`);
      assert.equal(quoted.body.usd, credits / 1000);
      assert.equal(quoted.body.affordable, true);
      assert.equal(quoted.body.generations.length, 1);
      assert.equal(quoted.body.generations[0].pricing.plan_multiplier, 1.6);

      const before = await snapshot(org);
      const over = await call('POST', endpoint, { key: org.liveKey, body: { ...body, max_credits: credits - 1 } });
      const openAi = endpoint.startsWith('/v1/openai');
      assert.equal(over.status, openAi ? 429 : 402, JSON.stringify(over.body));
      assert.equal(over.body.error.code, 'max_cost_exceeded');
      assert.match(over.body.error.message, new RegExp(`would reserve ${credits} credits, over its max_credits of ${credits - 1}`));
      assert.deepEqual(await snapshot(org), before, 'the refusal wrote no ledger row and no generation, and moved no credit');
      const quotedOver = await quote(org.liveKey, endpoint, { ...body, max_credits: credits - 1 });
      assert.equal(quotedOver.status, 402);
      assert.equal(quotedOver.body.error.code, 'max_cost_exceeded');

      const atCeiling = await call('POST', endpoint, { key: org.liveKey, body: { ...body, max_credits: credits } });
      assert.ok([200, 202].includes(atCeiling.status), JSON.stringify(atCeiling.body));
      const id = (openAi ? atCeiling.body.id.replace(/^chatcmpl-/, '') : atCeiling.body.id) as string;
      assert.equal(await reserveRow(id), credits, 'the reservation equals the quote');
      // The job's price snapshot (issue 42 item 4) is the price the quote showed.
      const { pricing } = (await call('GET', `/v1/generations/${id}`, { key: org.liveKey })).body;
      const quotedPrice = quoted.body.generations[0].pricing;
      assert.deepEqual([pricing.unit, pricing.credits_per_unit, pricing.plan_multiplier], [quotedPrice.unit, quotedPrice.credits_per_unit, quotedPrice.plan_multiplier]);
      await settle(org.liveKey, id);
      await assertMoneyInvariants(org.id);
    });
  }

  it('a comparison: the ceiling holds the sum of its children; the refusal details each child; exactly the sum runs', async () => {
    const org = await createOrganization({ plan: 'studio' });
    const body = { prompt: 'a lighthouse at dusk', models: ['flux-schnell', 'imagen-4', 'flux-1.1-pro-ultra'], params_shared: { num_outputs: 2 } };
    const quoted = await quote(org.liveKey, '/v1/comparisons', body);
    assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
    const lines = quoted.body.generations as { model: string; credits: number }[];
    assert.deepEqual(
      lines.map((l) => l.model),
      body.models,
    );
    const sum = lines.reduce((s, l) => s + l.credits, 0);
    assert.equal(quoted.body.credits, sum);

    const before = await snapshot(org);
    const over = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { ...body, max_credits: sum - 1 } });
    assert.equal(over.status, 402, JSON.stringify(over.body));
    assert.equal(over.body.error.code, 'max_cost_exceeded');
    assert.match(over.body.error.message, new RegExp(`would reserve ${sum} credits`));
    assert.deepEqual(
      over.body.error.details,
      lines.map((l, i) => ({ param: `models.${i}`, message: `Model '${l.model}' would reserve ${l.credits} credits.` })),
    );
    assert.deepEqual(await snapshot(org), before, 'nothing reserved');

    const ok = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { ...body, max_credits: sum } });
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    const children = ok.body.generations as { id: string; model: string }[];
    for (const [i, child] of children.entries()) {
      assert.equal(await reserveRow(child.id), lines[i]!.credits, `child ${child.model}`);
      await settle(org.liveKey, child.id);
    }
    await assertMoneyInvariants(org.id);
  });

  it('a test key: the quote is 0 credits, marked simulated, against the sandbox allowance; its request reserves 0 and writes no ledger row', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 0 });
    const body = { model: 'flux-1.1-pro', prompt: 'a kite', max_credits: 1 };
    const quoted = await quote(org.testKey, '/v1/images', body);
    assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
    assert.equal(quoted.body.credits, 0);
    assert.equal(quoted.body.generations[0].simulated, true);
    assert.ok(quoted.body.generations[0].pricing.credits_per_unit > 0, 'the price is still shown');
    assert.equal(quoted.body.available_credits, (await call('GET', '/v1/balance', { key: org.testKey })).body.available_credits);
    assert.equal(quoted.body.affordable, true);
    const real = await call('POST', '/v1/images', { key: org.testKey, body });
    assert.equal(real.status, 200, JSON.stringify(real.body));
    assert.equal(real.body.reserved_credits, 0);
    assert.equal(await reserveRow(real.body.id), undefined);
    await assertMoneyInvariants(org.id);
  });

  it('max_credits must be a positive integer: 400 validation_failed on every endpoint and on quotes, nothing charged', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const before = await snapshot(org);
    for (const bad of [0, -3, 1.5, '100', null]) {
      const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'x', max_credits: bad } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, 'max_credits');
      const q = await quote(org.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'x', max_credits: bad });
      assert.equal(q.status, 400);
      assert.equal(q.body.error.param, 'max_credits');
    }
    const cmp = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'x', models: ['flux-schnell', 'imagen-4'], max_credits: 0 } });
    assert.equal(cmp.status, 400);
    assert.equal(cmp.body.error.param, 'max_credits');
    assert.deepEqual(await snapshot(org), before);
    await assertMoneyInvariants(org.id);
  });

  it("a quote reserves nothing and creates nothing, and says when the wallet does not cover it (affordable: false), as the real request's 402 insufficient_credits", async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10 });
    const body = { model: 'flux-1.1-pro', prompt: 'a kite' };
    const before = await snapshot(org);
    const quoted = await quote(org.liveKey, '/v1/images', body);
    assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
    assert.equal(quoted.body.available_credits, 10);
    assert.equal(quoted.body.affordable, false);
    assert.deepEqual(await snapshot(org), before, 'the quote wrote nothing');
    const real = await call('POST', '/v1/images', { key: org.liveKey, body });
    assert.equal(real.status, 402);
    assert.equal(real.body.error.code, 'insufficient_credits');
    await assertMoneyInvariants(org.id);
  });

  it("quote refusals match the real request's: invalid body, unknown model, missing scope, plan gate, budget exhausted, retention, Cancel-After", async () => {
    const free = await createOrganization({ plan: 'free', credits: 100_000 });
    const pro = await createOrganization({ plan: 'pro', credits: 100_000 });
    const videoOnly = await createKeyWithRole(pro.id, 'developer', { scopes: ['videos:write'] });
    const viewer = await createKeyWithRole(pro.id, 'viewer', { scopes: ['images:write'] });
    const budgeted = await call('POST', '/v1/api-keys', { key: pro.liveKey, body: { name: 'tiny budget', monthly_budget_usd: 0.01 } });
    assert.equal(budgeted.status, 201, JSON.stringify(budgeted.body));
    const cases: { what: string; key: string; endpoint: string; body: Body; headers?: Record<string, string> }[] = [
      { what: 'invalid body', key: pro.liveKey, endpoint: '/v1/images', body: { model: 'flux-schnell', prompt: 'x', num_outputs: 9 } },
      { what: 'unknown field', key: pro.liveKey, endpoint: '/v1/videos', body: { model: 'hailuo-02', prompt: 'x', colour: 'red' } },
      { what: 'unknown model', key: pro.liveKey, endpoint: '/v1/music', body: { model: 'nope', prompt: 'x' } },
      { what: 'model limit', key: pro.liveKey, endpoint: '/v1/videos', body: { model: 'hailuo-02', prompt: 'x', duration_s: 7 } },
      { what: 'missing scope', key: videoOnly, endpoint: '/v1/images', body: { model: 'flux-schnell', prompt: 'x' } },
      { what: 'role', key: viewer, endpoint: '/v1/images', body: { model: 'flux-schnell', prompt: 'x' } },
      { what: 'comparison scope', key: videoOnly, endpoint: '/v1/comparisons', body: { prompt: 'x', models: ['flux-schnell', 'imagen-4'] } },
      { what: 'Studio+ on free', key: free.liveKey, endpoint: '/v1/images', body: { model: 'flux-1.1-pro-ultra', prompt: 'x' } },
      { what: 'comparison cap on free', key: free.liveKey, endpoint: '/v1/comparisons', body: { prompt: 'x', models: ['flux-schnell', 'imagen-4', 'flux-dev'] } },
      { what: 'budget exhausted', key: budgeted.body.secret, endpoint: '/v1/videos', body: { model: 'hailuo-02', prompt: 'x', duration_s: 6 } },
      { what: 'retention malformed', key: pro.liveKey, endpoint: '/v1/images', body: { model: 'flux-schnell', prompt: 'x', retention: '3w' } },
      {
        what: 'retention forever outside Enterprise',
        key: pro.liveKey,
        endpoint: '/v1/comparisons',
        body: { prompt: 'x', models: ['flux-schnell', 'imagen-4'], retention: 'forever' },
      },
      { what: 'Cancel-After over a sync budget', key: pro.liveKey, endpoint: '/v1/images', body: { model: 'flux-schnell', prompt: 'x' }, headers: { 'Cancel-After': '2h' } },
      { what: 'Cancel-After malformed', key: pro.liveKey, endpoint: '/v1/videos', body: { model: 'hailuo-02', prompt: 'x' }, headers: { 'Cancel-After': '1.5m' } },
    ];
    const before = [await snapshot(free), await snapshot(pro)];
    for (const c of cases) {
      const q = await call('POST', '/v1/quotes', { key: c.key, body: { endpoint: c.endpoint, body: c.body }, ...(c.headers && { headers: c.headers }) });
      const real = await call('POST', c.endpoint, { key: c.key, body: c.body, ...(c.headers && { headers: c.headers }) });
      assert.ok(real.status >= 400, `${c.what}: the real request is refused (${real.status})`);
      assert.deepEqual(
        [q.status, q.body.error?.code, q.body.error?.param],
        [real.status, real.body.error.code, real.body.error.param],
        `${c.what}: ${JSON.stringify(q.body)} vs ${JSON.stringify(real.body)}`,
      );
    }
    assert.deepEqual([await snapshot(free), await snapshot(pro)], before, 'nothing charged');
    await assertMoneyInvariants(free.id);
    await assertMoneyInvariants(pro.id);
  });

  it('a quote takes what the request takes: retention and a Cancel-After within its limit change nothing in the price', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const body = { model: 'hailuo-02', prompt: 'surf at dawn', duration_s: 6 };
    const plain = await quote(org.liveKey, '/v1/videos', body);
    const bounded = await call('POST', '/v1/quotes', { key: org.liveKey, body: { endpoint: '/v1/videos', body: { ...body, retention: '7d' } }, headers: { 'Cancel-After': '1h' } });
    assert.equal(bounded.status, 200, JSON.stringify(bounded.body));
    assert.equal(bounded.body.credits, plain.body.credits);
  });

  it('a quote over the key budget is refused 402 budget_exceeded by the rule admission runs, and records nothing (no usage.budget_threshold event)', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const key = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'small budget', monthly_budget_usd: 0.4 } });
    const body = { model: 'hailuo-02', prompt: 'x', duration_s: 6 };
    const events = () => stack().knex('events').where({ type: 'usage.budget_threshold' }).whereLike('subject_id', `${key.body.id}:%`).count<{ count: string }[]>('* as count');
    const q = await quote(key.body.secret, '/v1/videos', body);
    assert.equal(q.status, 402, JSON.stringify(q.body));
    assert.equal(q.body.error.code, 'budget_exceeded');
    assert.match(q.body.error.message, /monthly budget is 0.4 USD and it has spent 0 USD/);
    assert.equal(Number((await events())[0]!.count), 0, 'the quote wrote no event');
    const real = await call('POST', '/v1/videos', { key: key.body.secret, body });
    assert.equal(real.status, 402);
    assert.equal(real.body.error.message, q.body.error.message, 'the same refusal, word for word');
    assert.equal(Number((await events())[0]!.count), 1, 'the real refusal writes its request_refused event');
    const fits = await quote(key.body.secret, '/v1/images', { model: 'flux-schnell', prompt: 'x' });
    assert.equal(fits.status, 200, 'a request within the budget is quoted');
    await assertMoneyInvariants(org.id);
  });

  it("a paused organization's quote is refused 403 organization_paused, as its request is", async () => {
    const org = await createOrganization({ plan: 'pro' });
    const paused = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { paused: true } });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    const body = { model: 'flux-schnell', prompt: 'x' };
    const q = await quote(org.liveKey, '/v1/images', body);
    const real = await call('POST', '/v1/images', { key: org.liveKey, body });
    assert.deepEqual([q.status, q.body.error?.code], [403, 'organization_paused']);
    assert.deepEqual([real.status, real.body.error?.code], [403, 'organization_paused']);
    await assertMoneyInvariants(org.id);
  });

  it('rejects a quote of an endpoint that creates nothing, and a body that is not an object', async () => {
    const org = await createOrganization({ plan: 'pro' });
    for (const body of [{ endpoint: '/v1/balance', body: {} }, { endpoint: '/v1/images', body: 'x' }, { endpoint: '/v1/images' }]) {
      const res = await call('POST', '/v1/quotes', { key: org.liveKey, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'validation_failed');
    }
  });
});
