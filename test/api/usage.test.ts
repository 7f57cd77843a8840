import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';

// Usage against ledgers computed by hand: every generation is made through the API, then read back
// (GET /v1/generations/:id) for its creation time and what it was charged, and the expected rows
// are summed from those. `credits_refunded` counts refunds of failed or cancelled generations
// only: the unused rest of a partial chat capture is released, never charged, so it is not a
// refund even though the generation's `refunded_credits` shows it.

interface Made {
  id: string;
  day: string;
  model: string;
  modality: string;
  apiKey: string;
  charged: number;
  refunded: number;
}

type Key = { id: string; secret: string };

const today = () => new Date().toISOString().slice(0, 10);
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function createKey(org: TestOrganization, body: Record<string, unknown>): Promise<Key> {
  const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id, secret: res.body.secret };
}

/** Makes a generation with `key` and reads it back as the owner sees it. */
async function generate(
  org: TestOrganization,
  key: Key,
  path: string,
  body: object,
  ownerKey = org.liveKey,
): Promise<Made & { status: string; cacheHit: boolean; reserved: number }> {
  const created = await call('POST', path, { key: key.secret, body });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const gen = (await call('GET', `/v1/generations/${created.body.id}`, { key: ownerKey })).body;
  assert.ok(['succeeded', 'failed'].includes(gen.status), JSON.stringify(gen));
  return {
    id: gen.id,
    // The UTC day of its creation is the day it is counted on.
    day: gen.created_at.slice(0, 10),
    model: gen.model,
    modality: gen.modality,
    apiKey: key.id,
    status: gen.status,
    cacheHit: gen.cache_hit,
    reserved: gen.reserved_credits,
    charged: gen.charged_credits,
    refunded: gen.status === 'failed' ? gen.refunded_credits : 0,
  };
}

/** The rows GET /v1/usage should answer, summed by hand, sorted by key. */
function expectedRows(made: Made[], keyOf: (m: Made) => string) {
  const rows = new Map<string, { key: string; generations: number; credits_charged: number; credits_refunded: number; usd: number }>();
  for (const m of made) {
    const row = rows.get(keyOf(m)) ?? { key: keyOf(m), generations: 0, credits_charged: 0, credits_refunded: 0, usd: 0 };
    row.generations += 1;
    row.credits_charged += m.charged;
    row.credits_refunded += m.refunded;
    row.usd = row.credits_charged / 1000;
    rows.set(row.key, row);
  }
  return [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function usage(key: string, query = '') {
  const res = await call('GET', `/v1/usage${query}`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

describe('GET /v1/usage', function () {
  this.timeout(60_000);
  let org: TestOrganization;
  let made: (Made & { status: string; cacheHit: boolean; reserved: number })[];
  let imageKey: Key;
  let chatKey: Key;

  before(async () => {
    org = await createOrganization({ plan: 'pro', credits: 100_000 });
    imageKey = await createKey(org, { name: 'images', scopes: ['images:write'] });
    chatKey = await createKey(org, { name: 'chat', scopes: ['chat:write', 'images:write'] });
    made = [
      await generate(org, imageKey, '/v1/images', { model: 'flux-schnell', prompt: 'a kite' }),
      // Failed: its whole reservation is refunded.
      await generate(org, imageKey, '/v1/images', { model: 'flux-schnell', prompt: 'a kite #fail' }),
      // Seeded twice: the second is a cache hit, a generation for 0 credits.
      await generate(org, chatKey, '/v1/images', { model: 'flux-dev', prompt: 'a red bicycle', seed: 7 }),
      await generate(org, chatKey, '/v1/images', { model: 'flux-dev', prompt: 'a red bicycle', seed: 7 }),
      // Partial capture: reserved on max_tokens, charged on 40 tokens, the rest released.
      await generate(org, chatKey, '/v1/chat', { model: 'gpt-5-mini', messages: [{ content: 'hello #tokens:40' }], max_tokens: 2000 }),
      await generate(org, chatKey, '/v1/chat', { model: 'gpt-5-mini', messages: [{ content: 'hello #fail' }] }),
    ];
  });

  it('builds its fixtures as intended: a refund, a partial capture and a cache hit', () => {
    const [, failed, seeded, hit, partial, failedChat] = made;
    assert.equal(failed!.status, 'failed');
    assert.ok(failed!.refunded > 0 && failed!.charged === 0);
    assert.ok(seeded!.charged > 0);
    assert.deepEqual([hit!.cacheHit, hit!.charged, hit!.reserved], [true, 0, 0]);
    assert.ok(partial!.charged > 0 && partial!.charged < partial!.reserved, 'a partial capture');
    assert.equal(partial!.refunded, 0);
    assert.equal(failedChat!.status, 'failed');
  });

  it('groups by the UTC day of each generation by default, over the current month', async () => {
    const body = await usage(org.liveKey);
    assert.equal(body.object, 'list');
    assert.equal(body.group_by, 'day');
    assert.equal(body.to, today());
    assert.equal(body.from, `${today().slice(0, 7)}-01`);
    assert.deepEqual(
      body.data,
      expectedRows(made, (m) => m.day),
    );
    assert.ok(body.data.every((row: { key: string }) => /^\d{4}-\d{2}-\d{2}$/.test(row.key)));
    await assertLedgerBalanced(org.id);
  });

  it('groups by model, by api key and by modality, each sorted by key', async () => {
    const from = made[0]!.day;
    for (const [groupBy, keyOf] of [
      ['model', (m: Made) => m.model],
      ['api_key', (m: Made) => m.apiKey],
      ['modality', (m: Made) => m.modality],
    ] as const) {
      const body = await usage(org.liveKey, `?group_by=${groupBy}&from=${from}`);
      assert.equal(body.group_by, groupBy);
      assert.deepEqual(body.data, expectedRows(made, keyOf), groupBy);
    }
    const byModel = await usage(org.liveKey, `?group_by=model&from=${from}`);
    assert.deepEqual(
      byModel.data.map((r: { key: string }) => r.key),
      ['flux-dev', 'flux-schnell', 'gpt-5-mini'],
    );
    const fluxDev = byModel.data.find((r: { key: string }) => r.key === 'flux-dev');
    assert.equal(fluxDev.generations, 2, 'the cache hit counts as a generation');
    assert.equal(fluxDev.credits_charged, made[2]!.charged, 'and costs nothing');
    await assertLedgerBalanced(org.id);
  });

  it('filters by modality and by api key; a key of another organization matches nothing', async () => {
    const from = made[0]!.day;
    const chatOnly = await usage(org.liveKey, `?group_by=model&modality=chat&from=${from}`);
    assert.deepEqual(
      chatOnly.data,
      expectedRows(
        made.filter((m) => m.modality === 'chat'),
        (m) => m.model,
      ),
    );
    const oneKey = await usage(org.liveKey, `?group_by=modality&api_key=${imageKey.id}&from=${from}`);
    assert.deepEqual(
      oneKey.data,
      expectedRows(
        made.filter((m) => m.apiKey === imageKey.id),
        (m) => m.modality,
      ),
    );

    const stranger = await createOrganization({ credits: 1000 });
    assert.deepEqual((await usage(stranger.liveKey, `?api_key=${imageKey.id}&from=${from}`)).data, []);
    assert.deepEqual((await usage(stranger.liveKey, `?from=${from}`)).data, [], "another organization sees none of this one's usage");
    await assertLedgerBalanced(org.id);
  });

  it('takes from and to as inclusive UTC days', async () => {
    const day = made[0]!.day;
    const all = expectedRows(made, (m) => m.day);
    assert.deepEqual(
      (await usage(org.liveKey, `?from=${day}&to=${day}`)).data,
      all.filter((r) => r.key === day),
    );
    assert.deepEqual((await usage(org.liveKey, `?from=${day}`)).data, all);
    assert.deepEqual((await usage(org.liveKey, `?from=${dayBefore(day)}&to=${dayBefore(day)}`)).data, [], 'a to before the day excludes it');
    // A run that crosses midnight UTC splits the fixtures over two days, and each stays on its own.
    const lastDay = made.at(-1)!.day;
    assert.deepEqual((await usage(org.liveKey, `?from=${dayAfter(lastDay)}&to=${dayAfter(lastDay)}`)).data, []);
  });

  it('returns the same rows as CSV, for spreadsheets', async () => {
    const from = made[0]!.day;
    const to = today();
    const res = await fetchRaw(`/v1/usage?group_by=model&from=${from}&to=${to}&format=csv`, org.liveKey);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="usage-${from}-${to}-model.csv"`);
    const expected = expectedRows(made, (m) => m.model);
    assert.equal(
      res.text,
      ['key,generations,credits_charged,credits_refunded,usd', ...expected.map((r) => [r.key, r.generations, r.credits_charged, r.credits_refunded, r.usd].join(','))]
        .map((line) => `${line}\r\n`)
        .join(''),
    );
  });

  it('shows a test key the sandbox usage: counted, for 0 credits, apart from live usage', async () => {
    const sandbox = await createOrganization({ plan: 'pro', credits: 10_000 });
    const testKey: Key = { id: '', secret: sandbox.testKey };
    const tried = [
      await generate(sandbox, testKey, '/v1/images', { model: 'flux-schnell', prompt: 'a sandbox kite' }, sandbox.testKey),
      await generate(sandbox, testKey, '/v1/images', { model: 'flux-schnell', prompt: 'a sandbox kite #fail' }, sandbox.testKey),
      await generate(sandbox, testKey, '/v1/chat', { model: 'gpt-5-mini', messages: [{ content: 'hi #tokens:10' }] }, sandbox.testKey),
    ];
    const body = await usage(sandbox.testKey, `?group_by=model&from=${tried[0]!.day}`);
    assert.deepEqual(body.data, [
      { key: 'flux-schnell', generations: 2, credits_charged: 0, credits_refunded: 0, usd: 0 },
      { key: 'gpt-5-mini', generations: 1, credits_charged: 0, credits_refunded: 0, usd: 0 },
    ]);
    assert.deepEqual((await usage(sandbox.liveKey, `?from=${tried[0]!.day}`)).data, [], 'live usage leaves the sandbox out');
    // And the live organization's test key sees none of its live generations.
    assert.deepEqual((await usage(org.testKey, `?from=${made[0]!.day}`)).data, []);
    const wallet = await assertLedgerBalanced(sandbox.id);
    assert.equal(wallet.availableCredits, 10_000);
  });

  it('needs the usage:read scope', async () => {
    const res = await call('GET', '/v1/usage', { key: imageKey.secret });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'insufficient_role');
    assert.match(res.body.error.message, /usage:read/);
    const reader = await createKey(org, { name: 'finance', scopes: ['usage:read'] });
    assert.equal((await call('GET', '/v1/usage', { key: reader.secret })).status, 200);
  });

  it('refuses bad queries with 400 validation_failed naming the parameter, and charges nothing', async () => {
    const before = await assertLedgerBalanced(org.id);
    const cases: [string, string][] = [
      ['?group_by=week', 'group_by'],
      ['?group_by=day&group_by=model', 'group_by'],
      ['?from=2026-02-30', 'from'],
      ['?from=2026-1-01', 'from'],
      ['?to=yesterday', 'to'],
      ['?from=2026-03-02&to=2026-03-01', 'from'],
      [`?from=${dayAfter(today())}`, 'from'],
      ['?from=2025-01-01&to=2026-01-02', 'from'],
      ['?modality=text', 'modality'],
      [`?api_key=${'k'.repeat(101)}`, 'api_key'],
      ['?format=xlsx', 'format'],
      ['?limit=10', 'limit'],
    ];
    for (const [query, param] of cases) {
      const res = await call('GET', `/v1/usage${query}`, { key: org.liveKey });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'validation_failed', query);
      assert.equal(res.body.error.param, param, query);
      assert.ok(res.body.error.message.length > 0);
    }
    // A leap year's 366 days are allowed; the 367th is not (above).
    assert.equal((await call('GET', '/v1/usage?from=2024-01-01&to=2024-12-31', { key: org.liveKey })).status, 200);
    assert.deepEqual(await assertLedgerBalanced(org.id), before);
  });
});

async function fetchRaw(path: string, key: string): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await call<string>('GET', path, { key });
  return { status: res.status, headers: res.headers, text: res.body };
}
