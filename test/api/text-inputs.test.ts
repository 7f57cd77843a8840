import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ROUTES, type RouteSpec } from '../../api/route-table';
import { call, createOrganization, type HttpResult, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// Decisions §5, "Text inputs", and §9: a U+0000 or a lone UTF-16 surrogate in any string of a
// request (path, query, JSON body keys and values at any depth) is refused once, at the edge, before
// anything is stored or charged: never the 500 Postgres's refusal of such a string used to become.

const CREDITS = 100_000;
const NUL = '\u0000';
const routes = Object.entries(ROUTES as Record<string, RouteSpec>);

/** A route's path with each `:param` filled in with `value` (already URL-encoded). */
const fill = (path: string, value: string) => path.replace(/:[a-z_]+/g, value);

function credentialsFor(spec: RouteSpec, org: TestOrganization): string | undefined {
  if (spec.access.kind === 'admin') return stack().adminToken;
  return spec.access.kind === 'api_key' ? org.liveKey : undefined;
}

function assertRefused(res: HttpResult, status: number, code: string, param: string, what: string) {
  assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, code, what);
  assert.equal(res.body.error.param, param, what);
}

/** Nothing reserved, charged or created for the organization. */
async function assertNothingCharged(org: TestOrganization) {
  assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: CREDITS, reservedCredits: 0 });
  assert.deepEqual(await stack().knex('generations').where({ organization_id: org.id }).select('id'), []);
  assert.deepEqual(await stack().knex('comparisons').where({ organization_id: org.id }).select('id'), []);
}

describe('text inputs: U+0000 and lone surrogates are refused at the edge (decisions §5)', function () {
  this.timeout(60_000);
  let org: TestOrganization;
  beforeEach(async () => {
    org = await createOrganization({ plan: 'studio', credits: CREDITS });
  });

  const bodies: [string, string, unknown, string][] = [
    ['a prompt', '/v1/images', { model: 'flux-schnell', prompt: `a light${NUL}house` }, 'prompt'],
    ['a negative_prompt', '/v1/images', { model: 'flux-dev', prompt: 'a lighthouse', negative_prompt: `fog${NUL}` }, 'negative_prompt'],
    [
      'chat content in an array of objects',
      '/v1/chat',
      {
        model: 'gpt-5-mini',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'user', content: `x${NUL}` },
        ],
      },
      'messages.1.content',
    ],
    ['voice text', '/v1/voice', { model: 'openai-tts-1', text: `hello${NUL}` }, 'text'],
    ['a string in an array', '/v1/comparisons', { prompt: 'a kite', models: ['flux-schnell', `flux-dev${NUL}`] }, 'models.1'],
    ['a nested value', '/v1/comparisons', { prompt: 'a kite', models: ['flux-schnell', 'flux-dev'], params_shared: { style: { tone: `warm${NUL}` } } }, 'params_shared.style.tone'],
    [
      'a key name',
      '/v1/comparisons',
      { prompt: 'a kite', models: ['flux-schnell', 'flux-dev'], params_shared: { [`aspect${NUL}ratio`]: '16:9' } },
      'params_shared.aspect\\u0000ratio',
    ],
    ['a top-level key name', '/v1/images', { model: 'flux-schnell', prompt: 'a kite', [NUL]: 1 }, '\\u0000'],
    ['a lone high surrogate in voice text (jsonb)', '/v1/voice', { model: 'openai-tts-1', text: 'caf\uD800' }, 'text'],
    ['a lone low surrogate in chat content', '/v1/chat', { model: 'gpt-5-mini', messages: [{ role: 'user', content: '\uDE00 hi' }] }, 'messages.0.content'],
    [
      'a lone surrogate in params_shared',
      '/v1/comparisons',
      { prompt: 'a kite', models: ['flux-schnell', 'flux-dev'], params_shared: { negative_prompt: '\uDBFF' } },
      'params_shared.negative_prompt',
    ],
    ['a lone surrogate in a prompt (a text column would keep U+FFFD)', '/v1/images', { model: 'flux-schnell', prompt: 'a \uDC00 kite' }, 'prompt'],
    ['a webhook event name', '/v1/webhooks', { url: 'https://example.com/hook', events: [`generation.completed${NUL}`] }, 'events.0'],
  ];
  for (const [what, path, body, param] of bodies) {
    it(`answers 400 validation_failed naming ${param} for ${what}, charging nothing`, async () => {
      // JSON.stringify writes a lone surrogate as the escape "\ud800", as a client's JSON would.
      const res = await call('POST', path, { key: org.liveKey, body });
      assertRefused(res, 400, 'validation_failed', param, what);
      assert.match(res.body.error.message, /must not contain/);
      assert.equal(res.body.error.details[0].param, param);
      await assertNothingCharged(org);
    });
  }

  it('refuses an operator request body the same way', async () => {
    const res = await call('POST', '/admin/v1/organizations', { key: stack().adminToken, body: { name: `Acme${NUL}`, plan: 'pro' } });
    assertRefused(res, 400, 'validation_failed', 'name', 'admin body');
  });

  it('lists every fault in details, the first one in param', async () => {
    const res = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: `gpt${NUL}`, messages: [{ role: 'user', content: '\uD800' }] } });
    assertRefused(res, 400, 'validation_failed', 'model', 'two faults');
    assert.deepEqual(
      res.body.error.details.map((d: { param: string }) => d.param),
      ['model', 'messages.0.content'],
    );
  });

  it('accepts a surrogate pair (an emoji) and charges as usual', async () => {
    const res = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi \uD83D\uDE00' }] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'succeeded');
    await assertLedgerBalanced(org.id);
  });

  it('does not remember a refused request: the retry with its Idempotency-Key is the same 400, and the key stays free', async () => {
    const headers = { 'Idempotency-Key': `idem-${Math.random().toString(36).slice(2)}` };
    const bad = { model: 'flux-schnell', prompt: `a kite${NUL}` };
    const first = await call('POST', '/v1/images', { key: org.liveKey, body: bad, headers });
    assertRefused(first, 400, 'validation_failed', 'prompt', 'first');
    const retry = await call('POST', '/v1/images', { key: org.liveKey, body: bad, headers });
    assertRefused(retry, 400, 'validation_failed', 'prompt', 'retry');
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.deepEqual(await stack().knex('idempotency_keys').where({ organization_id: org.id }).select('key'), []);
    await assertNothingCharged(org);
    // Not remembered, so the key is free for the corrected request (a stored 400 would make this 422).
    const fixed = await call('POST', '/v1/images', { key: org.liveKey, body: { ...bad, prompt: 'a kite' }, headers });
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
    await assertLedgerBalanced(org.id);
  });

  it('answers 400 validation_failed for an empty Idempotency-Key, not "no key" (decisions §9: 1..255 characters)', async () => {
    const res = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a kite' }, headers: { 'Idempotency-Key': '' } });
    assertRefused(res, 400, 'validation_failed', 'Idempotency-Key', 'empty key');
    await assertNothingCharged(org);
  });

  it('answers 404 resource_not_found for a U+0000 in the id of every route with one, operator routes included', async () => {
    const withParams = routes.filter(([, spec]) => typeof spec.path === 'string' && spec.path.includes('/:'));
    assert.ok(withParams.length >= 20, 'every id route of the table');
    for (const [name, spec] of withParams) {
      const path = spec.path as string;
      const param = /:([a-z_]+)/.exec(path)![1]!;
      const res = await call(spec.method, fill(path, 'gen_%00'), { key: credentialsFor(spec, org) });
      assertRefused(res, 404, 'resource_not_found', param, `${name} ${spec.method} ${path}`);
    }
    await assertNothingCharged(org);
  });

  it('answers 400 validation_failed naming starting_after for a U+0000 in the cursor of every list endpoint', async () => {
    const lists = routes.filter(([name, spec]) => spec.method === 'GET' && name.startsWith('list'));
    assert.ok(lists.length >= 7, 'every list route of the table');
    for (const [name, spec] of lists) {
      // An id in the path is well formed (and unknown): only the cursor is at fault.
      const path = `${fill(spec.path as string, 'whk_0000000000000000')}?starting_after=gen_%00`;
      assertRefused(await call('GET', path, { key: credentialsFor(spec, org) }), 400, 'validation_failed', 'starting_after', `${name} GET ${path}`);
    }
  });

  it('answers 400 validation_failed naming the query parameter for a U+0000 in any other', async () => {
    assertRefused(await call('GET', '/v1/usage?api_key=key_%00', { key: org.liveKey }), 400, 'validation_failed', 'api_key', 'usage filter');
    assertRefused(await call('GET', '/v1/generations?status=succeeded&status=%00', { key: org.liveKey }), 400, 'validation_failed', 'status.1', 'repeated parameter');
    assertRefused(await call('GET', '/v1/generations?%00=1', { key: org.liveKey }), 400, 'validation_failed', '\\u0000', 'parameter name');
  });

  it('refuses any string with a NUL or a lone surrogate in chat content, whatever else it holds (property)', async function () {
    const badChar = fc.constantFrom(NUL, '\uD800', '\uDBFF', '\uDC00', '\uDFFF');
    const text = fc.tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), badChar, fc.string({ unit: 'grapheme', maxLength: 40 })).map(([a, c, b]) => a + c + b);
    await fc.assert(
      fc.asyncProperty(text, fc.nat({ max: 2 }), async (content, position) => {
        const messages = [...Array.from({ length: position }, () => ({ role: 'user', content: 'fine' })), { role: 'user', content }];
        const res = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages } });
        assertRefused(res, 400, 'validation_failed', `messages.${position}.content`, JSON.stringify(content));
      }),
      { numRuns: 40 },
    );
    await assertNothingCharged(org);
  });
});
