import assert from 'node:assert/strict';
import { REAL_PROVIDERS } from '../../domain/providers';
import { providerSecretsKeys } from '../../config';
import { providerCredentialBinding } from '../../lib/secret-bindings';
import { createSecretBox } from '../../lib/secret-box';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { startExtraApi, stack } from '../helpers/stack';

// Bring your own key (issue 13): an Enterprise organization stores its own provider keys, sealed at
// rest and never returned, and its live requests route to those providers. Running generations on
// such a key is tested end to end elsewhere; here: the API, who may use it, and what it stores.

const OPENAI_KEY = 'sk-proj-ownKeyOfTheOrganization7x9Q';
const path = (provider: string) => `/v1/provider-credentials/${provider}`;

interface Credential {
  object: string;
  provider: string;
  key_hint: string;
  created_at: string;
  updated_at: string;
}

/** What the database holds for the organization, read directly: the API never shows it. */
const storedRows = (organizationId: string): Promise<{ organization_id: string; provider: string; sealed_api_key: string }[]> =>
  stack().knex('provider_credentials').where({ organization_id: organizationId }).select('organization_id', 'provider', 'sealed_api_key');

/** A stored key opened as the worker opens it: PROVIDER_SECRETS_KEY, bound to its row. */
const openStored = (row: { organization_id: string; provider: string; sealed_api_key: string }): string =>
  createSecretBox(providerSecretsKeys(stack().config)).open(row.sealed_api_key, providerCredentialBinding(row.organization_id, row.provider));

const listCredentials = async (key: string): Promise<Credential[]> => {
  const res = await call('GET', '/v1/provider-credentials', { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
};

/** The providers GET /v1/models names for a model, for the caller's key. */
const providersOf = async (key: string, slug: string, baseUrl?: string): Promise<string[]> => {
  const res = await call('GET', '/v1/models', { key, ...(baseUrl && { baseUrl }) });
  assert.equal(res.status, 200);
  return res.body.data.find((m: { slug: string }) => m.slug === slug).providers;
};

function assertError(res: { status: number; body: any }, status: number, code: string, param?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error.code, code);
  if (param !== undefined) assert.equal(res.body.error.param, param);
}

describe('/v1/provider-credentials', () => {
  let org: TestOrganization;
  beforeEach(async () => {
    org = await createOrganization({ enterprise: true });
  });

  const put = (provider: string, body: unknown, key = org.liveKey) => call('PUT', path(provider), { key, body });

  /** A key of the organization's owner, narrowed through the public API. */
  async function narrowedKey(body: object): Promise<string> {
    const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'narrowed', ...body } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.secret;
  }

  it('stores a key sealed and answers with a hint of it, never the key', async () => {
    const res = await put('openai', { api_key: OPENAI_KEY });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.object, 'provider_credential');
    assert.equal(res.body.provider, 'openai');
    assert.equal(res.body.key_hint, '…7x9Q');
    assert.ok(Date.parse(res.body.created_at));
    assert.equal(res.body.updated_at, res.body.created_at);
    assert.ok(!JSON.stringify(res.body).includes(OPENAI_KEY));

    const list = await call('GET', '/v1/provider-credentials', { key: org.liveKey });
    assert.equal(list.status, 200);
    assert.equal(list.body.object, 'list');
    assert.equal(list.body.has_more, false);
    assert.deepEqual(list.body.data, [res.body]);
    assert.ok(!JSON.stringify(list.body).includes(OPENAI_KEY));

    const [row] = await storedRows(org.id);
    assert.ok(!row!.sealed_api_key.includes(OPENAI_KEY));
    assert.equal(openStored(row!), OPENAI_KEY);
  });

  it('gives no hint of a short key, whose last four characters would give too much away', async () => {
    const res = await put('openai_compatible', { api_key: 'ollama' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.key_hint, '…');
  });

  it('replaces the key on a second PUT: still one row, a new hint, updated_at moves', async () => {
    const first = await put('openai', { api_key: OPENAI_KEY });
    const second = await put('openai', { api_key: 'sk-proj-theRotatedKeyOfTheOrg0000' });
    assert.equal(second.status, 200);
    assert.equal(second.body.key_hint, '…0000');
    assert.equal(second.body.created_at, first.body.created_at);
    assert.ok(Date.parse(second.body.updated_at) > Date.parse(first.body.updated_at));

    assert.deepEqual(await listCredentials(org.liveKey), [second.body]);
    const rows = await storedRows(org.id);
    assert.equal(rows.length, 1);
    assert.equal(openStored(rows[0]!), 'sk-proj-theRotatedKeyOfTheOrg0000');
  });

  it('lists one entry per provider, in provider order', async () => {
    await put('replicate', { api_key: 'r8_ownReplicateTokenOfTheOrg' });
    await put('anthropic', { api_key: 'sk-ant-ownAnthropicKeyOfTheOrg' });
    assert.deepEqual(
      (await listCredentials(org.liveKey)).map((c) => c.provider),
      ['anthropic', 'replicate'],
    );
  });

  it('deletes a key with DELETE, after which a second DELETE answers 404 resource_not_found', async () => {
    await put('openai', { api_key: OPENAI_KEY });
    const deleted = await call('DELETE', path('openai'), { key: org.liveKey });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(deleted.body, { object: 'provider_credential', provider: 'openai', deleted: true });
    assert.deepEqual(await listCredentials(org.liveKey), []);
    assert.deepEqual(await storedRows(org.id), []);

    const again = await call('DELETE', path('openai'), { key: org.liveKey });
    assertError(again, 404, 'resource_not_found', 'provider');
    assert.match(again.body.error.message, /openai/);
  });

  it("routes the organization's live requests to a provider once it has a key for it, and back after DELETE", async () => {
    // A server with no platform credentials that simulates models without any.
    const { url } = await startExtraApi({ routing: { providerMode: 'simulated', configuredProviders: [] } });
    assert.deepEqual(await providersOf(org.liveKey, 'gpt-image-1', url), ['simulator']);
    await put('openai', { api_key: OPENAI_KEY });
    assert.deepEqual(await providersOf(org.liveKey, 'gpt-image-1', url), ['openai']);
    // The sandbox always runs on the simulator, own keys or not.
    assert.deepEqual(await providersOf(org.testKey, 'gpt-image-1', url), ['simulator']);
    // Another organization's key changes nothing for this one.
    const other = await createOrganization({ enterprise: true });
    assert.deepEqual(await providersOf(other.liveKey, 'gpt-image-1', url), ['simulator']);

    await call('DELETE', path('openai'), { key: org.liveKey });
    assert.deepEqual(await providersOf(org.liveKey, 'gpt-image-1', url), ['simulator']);
  });

  it('refuses a PUT from an organization without Enterprise with 402 plan_upgrade_required, storing nothing', async () => {
    const pro = await createOrganization();
    const res = await put('openai', { api_key: OPENAI_KEY }, pro.liveKey);
    assertError(res, 402, 'plan_upgrade_required');
    assert.equal(res.body.error.type, 'billing_error');
    assert.match(res.body.error.message, /Enterprise/);
    assert.deepEqual(await listCredentials(pro.liveKey), []);
    assert.deepEqual(await storedRows(pro.id), []);
  });

  it('lets an organization that lost Enterprise list and delete its keys, but not store new ones', async () => {
    await put('openai', { api_key: OPENAI_KEY });
    const downgraded = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { enterprise: false } });
    assert.equal(downgraded.status, 200, JSON.stringify(downgraded.body));

    assertError(await put('anthropic', { api_key: 'sk-ant-ownAnthropicKeyOfTheOrg' }), 402, 'plan_upgrade_required');
    assert.deepEqual(
      (await listCredentials(org.liveKey)).map((c) => c.provider),
      ['openai'],
    );
    assert.equal((await call('DELETE', path('openai'), { key: org.liveKey })).status, 200);
    assert.deepEqual(await storedRows(org.id), []);
  });

  it('refuses developer and viewer keys on every route with 403 insufficient_role', async () => {
    await put('openai', { api_key: OPENAI_KEY });
    for (const role of ['developer', 'viewer']) {
      const key = await narrowedKey({ role });
      assertError(await call('GET', '/v1/provider-credentials', { key }), 403, 'insufficient_role');
      assertError(await put('anthropic', { api_key: 'sk-ant-ownAnthropicKeyOfTheOrg' }, key), 403, 'insufficient_role');
      assertError(await call('DELETE', path('openai'), { key }), 403, 'insufficient_role');
    }
    assert.deepEqual(
      (await storedRows(org.id)).map((r) => r.provider),
      ['openai'],
    );
  });

  it('refuses an owner key without the api_keys:manage scope with 403 insufficient_role', async () => {
    await put('openai', { api_key: OPENAI_KEY });
    const key = await narrowedKey({ scopes: ['usage:read', 'webhooks:manage'] });
    for (const res of [
      await call('GET', '/v1/provider-credentials', { key }),
      await put('anthropic', { api_key: 'sk-ant-ownAnthropicKeyOfTheOrg' }, key),
      await call('DELETE', path('openai'), { key }),
    ]) {
      assertError(res, 403, 'insufficient_role');
      assert.match(res.body.error.message, /api_keys:manage/);
    }
    assert.deepEqual(
      (await storedRows(org.id)).map((r) => r.provider),
      ['openai'],
    );
  });

  it('lets a test key list the keys but not change them, since they serve live requests', async () => {
    await put('openai', { api_key: OPENAI_KEY });
    assert.deepEqual(
      (await listCredentials(org.testKey)).map((c) => c.provider),
      ['openai'],
    );
    const stored = await put('anthropic', { api_key: 'sk-ant-ownAnthropicKeyOfTheOrg' }, org.testKey);
    assertError(stored, 403, 'insufficient_role');
    assert.match(stored.body.error.message, /live key/);
    assertError(await call('DELETE', path('openai'), { key: org.testKey }), 403, 'insufficient_role');
    assert.deepEqual(
      (await storedRows(org.id)).map((r) => r.provider),
      ['openai'],
    );
  });

  it('answers 400 validation_failed naming the providers to an unknown provider name', async () => {
    for (const provider of ['simulator', 'openai2', 'OpenAI']) {
      for (const res of [await put(provider, { api_key: OPENAI_KEY }), await call('DELETE', path(provider), { key: org.liveKey })]) {
        assertError(res, 400, 'validation_failed', 'provider');
        for (const name of REAL_PROVIDERS) assert.ok(res.body.error.message.includes(name), res.body.error.message);
      }
    }
    assert.deepEqual(await storedRows(org.id), []);
  });

  it('answers 400 validation_failed naming the parameter to a bad body, storing nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'api_key'],
      [{ api_key: '' }, 'api_key'],
      [{ api_key: 'x'.repeat(501) }, 'api_key'],
      [{ api_key: 12345 }, 'api_key'],
      [{ api_key: null }, 'api_key'],
      [{ api_key: ['sk-a'] }, 'api_key'],
      [{ api_key: 'sk-proj-with a-space' }, 'api_key'],
      [{ api_key: `${OPENAI_KEY}\n` }, 'api_key'],
      [{ api_key: OPENAI_KEY, base_url: 'https://example.com' }, 'base_url'],
      [['sk-a'], 'body'],
    ];
    for (const [body, param] of cases) {
      const res = await put('openai', body);
      assertError(res, 400, 'validation_failed', param);
      assert.ok(res.body.error.message.includes(param), res.body.error.message);
    }
    assert.match((await put('openai', { api_key: 'sk a' })).body.error.message, /whitespace/);
    assert.equal((await put('openai', { api_key: 'x'.repeat(500) })).status, 200);
  });

  it("hides an organization's keys from every other organization", async () => {
    await put('openai', { api_key: OPENAI_KEY });
    const stranger = await createOrganization({ enterprise: true });
    assert.deepEqual(await listCredentials(stranger.liveKey), []);
    assertError(await call('DELETE', path('openai'), { key: stranger.liveKey }), 404, 'resource_not_found');
    // The stranger's own key for the same provider is its own row; the first one is untouched.
    assert.equal((await put('openai', { api_key: 'sk-proj-theStrangersOwnKey4242' }, stranger.liveKey)).status, 200);
    assert.deepEqual(
      (await listCredentials(org.liveKey)).map((c) => c.key_hint),
      ['…7x9Q'],
    );
    const [row] = await storedRows(org.id);
    assert.equal(openStored(row!), OPENAI_KEY);
  });

  it('answers 400 naming the setting when this server has no base URL for the provider', async () => {
    const api = await startExtraApi({ byokProviders: REAL_PROVIDERS.filter((p) => p !== 'openai_compatible') });
    try {
      const res = await call('PUT', path('openai_compatible'), { key: org.liveKey, body: { api_key: OPENAI_KEY }, baseUrl: api.url });
      assertError(res, 400, 'validation_failed', 'provider');
      assert.match(res.body.error.message, /OPENAI_COMPATIBLE_BASE_URL/);
      assert.deepEqual(await storedRows(org.id), []);
    } finally {
      await api.close();
    }
  });

  it('answers 503 service_unavailable to a PUT when the server has no PROVIDER_SECRETS_KEY, yet lists and deletes', async () => {
    await put('openai', { api_key: OPENAI_KEY });
    const api = await startExtraApi({ providerSecrets: undefined });
    try {
      const res = await call('PUT', path('anthropic'), { key: org.liveKey, body: { api_key: 'sk-ant-ownAnthropicKeyOfTheOrg' }, baseUrl: api.url });
      assertError(res, 503, 'service_unavailable');
      assert.match(res.body.error.message, /PROVIDER_SECRETS_KEY/);
      assert.deepEqual(
        (await listCredentials(org.liveKey)).map((c) => c.provider),
        ['openai'],
      );
      assert.equal((await call('DELETE', path('openai'), { key: org.liveKey, baseUrl: api.url })).status, 200);
      assert.deepEqual(await storedRows(org.id), []);
    } finally {
      await api.close();
    }
  });
});
