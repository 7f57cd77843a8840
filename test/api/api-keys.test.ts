import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertLedgerBalanced } from '../helpers/ledger';
import { freePort } from '../../lib/free-port';
import { killHard, spawnApiProcess } from '../helpers/service-process';
import { stack } from '../helpers/stack';

const image = { model: 'flux-schnell', prompt: 'key test' };

describe('/v1/api-keys', () => {
  let org: TestOrganization;
  beforeEach(async () => {
    org = await createOrganization();
  });
  // Some of these tests generate with the keys they make: nothing about keys may move money oddly.
  afterEach(async () => {
    await assertLedgerBalanced(org.id);
  });

  it('creates a key whose secret is shown once and works at once, inheriting the creator role', async () => {
    const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'CI', scopes: ['images:write'], monthly_budget_usd: 12.5 } });
    assert.equal(res.status, 201);
    assert.equal(res.body.object, 'api_key');
    assert.match(res.body.id, /^key_/);
    assert.equal(res.body.environment, 'live');
    assert.equal(res.body.role, 'owner');
    assert.deepEqual(res.body.scopes, ['images:write']);
    assert.equal(res.body.monthly_budget_usd, 12.5);
    assert.match(res.body.secret, /^sk_live_[0-9A-Za-z]{43}$/);
    assert.equal(res.body.prefix, res.body.secret.slice(0, 12));
    assert.equal(res.body.revoked_at, null);

    assert.equal((await call('POST', '/v1/images', { key: res.body.secret, body: image })).status, 200);
    const listed = await call('GET', '/v1/api-keys', { key: org.liveKey });
    const shown = listed.body.data.find((k: { id: string }) => k.id === res.body.id);
    assert.equal(shown.name, 'CI');
    assert.equal(shown.secret, undefined);
    assert.ok(!JSON.stringify(listed.body).includes(res.body.secret));
  });

  it('makes test keys with a test key, and lists only its own environment', async () => {
    const created = await call('POST', '/v1/api-keys', { key: org.testKey, body: { name: 'sandbox' } });
    assert.equal(created.body.environment, 'test');
    assert.match(created.body.secret, /^sk_test_/);
    const live = await call('GET', '/v1/api-keys', { key: org.liveKey });
    const test = await call('GET', '/v1/api-keys', { key: org.testKey });
    assert.ok(live.body.data.every((k: { environment: string }) => k.environment === 'live'));
    assert.ok(test.body.data.some((k: { id: string }) => k.id === created.body.id));
  });

  it('lets a live key create a test key, which then belongs to the test world only', async () => {
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'sandbox for CI', environment: 'test' } });
    assert.equal(created.status, 201);
    assert.equal(created.body.environment, 'test');
    assert.match(created.body.secret, /^sk_test_/);
    assert.equal((await call('GET', '/v1/balance', { key: created.body.secret })).status, 200);
    const test = await call('GET', '/v1/api-keys', { key: org.testKey });
    assert.ok(test.body.data.some((k: { id: string }) => k.id === created.body.id));
    // Like every test resource, it is invisible to live keys afterwards.
    assert.equal((await call('DELETE', `/v1/api-keys/${created.body.id}`, { key: org.liveKey })).status, 404);
  });

  it('refuses a test key that asks for a live key, and creates nothing', async () => {
    const res = await call('POST', '/v1/api-keys', { key: org.testKey, body: { name: 'escape', environment: 'live' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'insufficient_role');
    assert.equal(res.body.error.param, 'environment');
    const live = await call('GET', '/v1/api-keys', { key: org.liveKey });
    assert.ok(!live.body.data.some((k: { name: string }) => k.name === 'escape'));
  });

  it('creates a key with a lower role, which acts with that role only', async () => {
    const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'dashboards', role: 'viewer' } });
    assert.equal(res.status, 201);
    assert.equal(res.body.role, 'viewer');
    const viewer = res.body.secret;
    assert.equal((await call('GET', '/v1/models', { key: viewer })).status, 200);
    const denied = await call('POST', '/v1/images', { key: viewer, body: image });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 'insufficient_role');
    const listed = await call('GET', '/v1/api-keys', { key: org.liveKey });
    assert.equal(listed.body.data.find((k: { id: string }) => k.id === res.body.id).role, 'viewer');
  });

  it('never lets a key grant a role above its own, and passes its role on by default', async () => {
    const admin = (await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'ops', role: 'admin' } })).body.secret;
    const above = await call('POST', '/v1/api-keys', { key: admin, body: { name: 'promote me', role: 'owner' } });
    assert.equal(above.status, 403);
    assert.equal(above.body.error.code, 'insufficient_role');
    assert.equal(above.body.error.param, 'role');

    const inherited = await call('POST', '/v1/api-keys', { key: admin, body: { name: 'child' } });
    assert.equal(inherited.status, 201);
    assert.equal(inherited.body.role, 'admin');
    // The child is capped like its creator: it cannot mint an owner key either.
    const grandchild = await call('POST', '/v1/api-keys', { key: inherited.body.secret, body: { name: 'x', role: 'owner' } });
    assert.equal(grandchild.status, 403);
    const lower = await call('POST', '/v1/api-keys', { key: admin, body: { name: 'ci', role: 'developer' } });
    assert.equal(lower.body.role, 'developer');
  });

  it('lets an admin key manage admin keys but not revoke, change or allowlist an owner key', async () => {
    const enterprise = await createOrganization({ enterprise: true });
    const ownerKeyId = (await call('GET', '/v1/api-keys', { key: enterprise.liveKey })).body.data[0].id;
    const admin = (await call('POST', '/v1/api-keys', { key: enterprise.liveKey, body: { name: 'ops', role: 'admin' } })).body.secret;
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { name: 'taken over' }],
      ['PATCH', { ipAllowlist: ['203.0.113.0/24'] }],
    ] as const) {
      const res = await call(method, `/v1/api-keys/${ownerKeyId}`, { key: admin, body });
      assert.equal(res.status, 403, `${method} ${JSON.stringify(body)}`);
      assert.equal(res.body.error.code, 'insufficient_role');
      assert.match(res.body.error.message, /owner/);
    }
    const unchanged = (await call('GET', '/v1/api-keys', { key: enterprise.liveKey })).body.data.find((k: { id: string }) => k.id === ownerKeyId);
    assert.equal(unchanged.name, 'Owner live key');
    assert.deepEqual(unchanged.ip_allowlist, []);
    assert.equal(unchanged.revoked_at, null);

    const peer = await call('POST', '/v1/api-keys', { key: admin, body: { name: 'peer' } });
    assert.equal((await call('PATCH', `/v1/api-keys/${peer.body.id}`, { key: admin, body: { ipAllowlist: ['203.0.113.0/24'] } })).status, 200);
    assert.equal((await call('DELETE', `/v1/api-keys/${peer.body.id}`, { key: admin })).status, 200);
  });

  it('revokes a key immediately, in every API process', async function () {
    this.timeout(60_000);
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'to revoke' } });
    const secret = created.body.secret;
    // A second API as its own OS process, sharing only Postgres and Temporal with this one.
    const port = await freePort();
    const second = await spawnApiProcess(port);
    const secondUrl = `http://127.0.0.1:${port}`;
    try {
      // Both processes have the key's principal cached before the revocation.
      for (const baseUrl of [stack().apiUrl, secondUrl]) {
        assert.equal((await call('GET', '/v1/api-keys', { key: secret, baseUrl })).status, 200);
      }

      const revoked = await call('DELETE', `/v1/api-keys/${created.body.id}`, { key: org.liveKey });
      assert.equal(revoked.status, 200);
      assert.ok(revoked.body.revoked_at);

      for (const baseUrl of [stack().apiUrl, secondUrl]) {
        const res = await call('POST', '/v1/images', { key: secret, body: image, baseUrl });
        assert.equal(res.status, 401);
        assert.equal(res.body.error.code, 'invalid_api_key');
      }
      const again = await call('DELETE', `/v1/api-keys/${created.body.id}`, { key: org.liveKey });
      assert.equal(again.body.revoked_at, revoked.body.revoked_at);
    } finally {
      await killHard(second);
    }
  });

  it('rotates: create, use the new key, revoke the old one', async () => {
    const old = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'v1' } });
    const fresh = await call('POST', '/v1/api-keys', { key: old.body.secret, body: { name: 'v2' } });
    assert.equal((await call('DELETE', `/v1/api-keys/${old.body.id}`, { key: fresh.body.secret })).status, 200);
    assert.equal((await call('GET', '/v1/api-keys', { key: old.body.secret })).status, 401);
    assert.equal((await call('GET', '/v1/api-keys', { key: fresh.body.secret })).status, 200);
  });

  it('renames and sets a budget with PATCH', async () => {
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'before' } });
    const res = await call('PATCH', `/v1/api-keys/${created.body.id}`, { key: org.liveKey, body: { name: 'after', monthly_budget_usd: 30 } });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'after');
    assert.equal(res.body.monthly_budget_usd, 30);
  });

  it('paginates newest first with limit and starting_after', async () => {
    for (let i = 0; i < 3; i++) await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: `k${i}` } });
    const first = await call('GET', '/v1/api-keys?limit=2', { key: org.liveKey });
    assert.equal(first.body.object, 'list');
    assert.deepEqual(
      first.body.data.map((k: { name: string }) => k.name),
      ['k2', 'k1'],
    );
    assert.equal(first.body.has_more, true);
    const next = await call('GET', `/v1/api-keys?limit=2&starting_after=${first.body.data[1].id}`, { key: org.liveKey });
    assert.deepEqual(
      next.body.data.map((k: { name: string }) => k.name),
      ['k0', 'Owner live key'],
    );
    assert.equal(next.body.has_more, false);
  });

  it('refuses a scoped key that tries to create a broader key', async () => {
    const scoped = await createKeyWithRole(org.id, 'admin', { scopes: ['api_keys:manage', 'images:write'] });
    const broader = await call('POST', '/v1/api-keys', { key: scoped, body: { name: 'all' } });
    assert.equal(broader.status, 403);
    assert.equal(broader.body.error.param, 'scopes');
    const other = await call('POST', '/v1/api-keys', { key: scoped, body: { name: 'x', scopes: ['videos:write'] } });
    assert.equal(other.status, 403);
    const narrower = await call('POST', '/v1/api-keys', { key: scoped, body: { name: 'ok', scopes: ['images:write'] } });
    assert.equal(narrower.status, 201);
  });

  it('lets only admins and owners manage keys', async () => {
    for (const role of ['viewer', 'developer'] as const) {
      const key = await createKeyWithRole(org.id, role);
      const res = await call('POST', '/v1/api-keys', { key, body: { name: 'nope' } });
      assert.equal(res.status, 403, role);
      assert.equal(res.body.error.code, 'insufficient_role');
      assert.equal((await call('GET', '/v1/api-keys', { key })).status, 403);
    }
    const admin = await createKeyWithRole(org.id, 'admin');
    const made = await call('POST', '/v1/api-keys', { key: admin, body: { name: 'by admin' } });
    assert.equal(made.body.role, 'admin');
  });

  it('answers 404 for a key of another organization or environment', async () => {
    const other = await createOrganization();
    const theirs = await call('POST', '/v1/api-keys', { key: other.liveKey, body: { name: 'theirs' } });
    const mineTest = await call('POST', '/v1/api-keys', { key: org.testKey, body: { name: 'test' } });
    for (const [method, id, key] of [
      ['DELETE', theirs.body.id, org.liveKey],
      ['PATCH', theirs.body.id, org.liveKey],
      ['DELETE', mineTest.body.id, org.liveKey],
    ] as const) {
      const res = await call(method, `/v1/api-keys/${id}`, { key, body: method === 'PATCH' ? { name: 'x' } : undefined });
      assert.equal(res.status, 404, `${method} ${id}`);
      assert.equal(res.body.error.code, 'resource_not_found');
    }
    assert.equal((await call('POST', '/v1/images', { key: theirs.body.secret, body: image })).status, 200);
  });

  const badCreates: [string, unknown, string][] = [
    ['no name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['an unknown scope', { name: 'x', scopes: ['admin:all'] }, 'scopes.0'],
    ['repeated scopes', { name: 'x', scopes: ['images:write', 'images:write'] }, 'scopes'],
    ['an unknown environment', { name: 'x', environment: 'staging' }, 'environment'],
    ['a negative budget', { name: 'x', monthly_budget_usd: -1 }, 'monthly_budget_usd'],
    ['a budget in fractions of a cent', { name: 'x', monthly_budget_usd: 1.001 }, 'monthly_budget_usd'],
    ['an unknown role', { name: 'x', role: 'superuser' }, 'role'],
    ['an unknown field', { name: 'x', user_id: 'usr_someone' }, 'user_id'],
  ];
  for (const [what, body, param] of badCreates) {
    it(`answers 400 for a key with ${what}`, async () => {
      const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param);
    });
  }

  it('answers 400 for bad list parameters and 404 for an unknown starting_after', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=1&limit=2', 'order=asc']) {
      assert.equal((await call('GET', `/v1/api-keys?${q}`, { key: org.liveKey })).status, 400, q);
    }
    const res = await call('GET', '/v1/api-keys?starting_after=key_missing', { key: org.liveKey });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.param, 'starting_after');
  });

  it('never stores a secret in plaintext, in any table', async () => {
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'scan me' } });
    const secrets = [created.body.secret, org.liveKey, org.testKey];
    const tables = await stack().knex('pg_tables').where({ schemaname: 'public' }).pluck('tablename');
    for (const table of tables) {
      const dump = JSON.stringify(await stack().knex(table).select());
      for (const secret of secrets) assert.ok(!dump.includes(secret), `${table} contains a key secret`);
    }
  });
});
