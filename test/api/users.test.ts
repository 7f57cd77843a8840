import assert from 'node:assert/strict';
import { freePort } from '../../lib/free-port';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { killHard, spawnApiProcess } from '../helpers/service-process';
import { stack } from '../helpers/stack';

interface User {
  id: string;
  email: string | null;
  role: string;
  deactivated_at: string | null;
}

describe('/v1/users', () => {
  let org: TestOrganization;
  let ownerId: string;
  beforeEach(async () => {
    org = await createOrganization();
    ownerId = (await call('GET', '/v1/users', { key: org.liveKey })).body.data[0].id;
  });

  async function addUser(email: string, role: string, key = org.liveKey): Promise<User> {
    const res = await call('POST', '/v1/users', { key, body: { email, role } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  /** A key of the organization's owner, capped at `role` through the public API. */
  async function keyWithRole(role: string, extra: object = {}): Promise<string> {
    const res = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: `${role} key`, role, ...extra } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.secret;
  }

  const listUsers = async (key = org.liveKey): Promise<User[]> => (await call('GET', '/v1/users', { key })).body.data;

  it('lists the owner the operator created', async () => {
    const res = await call('GET', '/v1/users', { key: org.liveKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'list');
    assert.equal(res.body.has_more, false);
    assert.equal(res.body.data.length, 1);
    const [owner] = res.body.data;
    assert.match(owner.id, /^usr_/);
    assert.equal(owner.object, 'user');
    assert.equal(owner.role, 'owner');
    assert.equal(owner.deactivated_at, null);
    assert.ok(Date.parse(owner.created_at));
  });

  it('adds a user with a role and lists users newest first, page by page', async () => {
    const created = await call('POST', '/v1/users', { key: org.liveKey, body: { email: 'ada@example.com', role: 'developer' } });
    assert.equal(created.status, 201);
    assert.equal(created.body.object, 'user');
    assert.equal(created.body.email, 'ada@example.com');
    assert.equal(created.body.name, 'ada@example.com');
    assert.equal(created.body.role, 'developer');
    assert.equal(created.body.deactivated_at, null);
    await addUser('grace@example.com', 'viewer');

    const first = await call('GET', '/v1/users?limit=2', { key: org.liveKey });
    assert.deepEqual(
      first.body.data.map((u: User) => u.email),
      ['grace@example.com', 'ada@example.com'],
    );
    assert.equal(first.body.has_more, true);
    const next = await call('GET', `/v1/users?limit=2&starting_after=${first.body.data[1].id}`, { key: org.liveKey });
    assert.deepEqual(
      next.body.data.map((u: User) => u.id),
      [ownerId],
    );
    assert.equal(next.body.has_more, false);
  });

  it('changes a role with PATCH and deactivates with DELETE, which is final and repeatable', async () => {
    const user = await addUser('lin@example.com', 'viewer');
    const promoted = await call('PATCH', `/v1/users/${user.id}`, { key: org.liveKey, body: { role: 'admin' } });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.role, 'admin');

    const gone = await call('DELETE', `/v1/users/${user.id}`, { key: org.liveKey });
    assert.equal(gone.status, 200);
    assert.ok(gone.body.deactivated_at);
    assert.equal((await listUsers()).find((u) => u.id === user.id)?.deactivated_at, gone.body.deactivated_at);
    const again = await call('DELETE', `/v1/users/${user.id}`, { key: org.liveKey });
    assert.equal(again.body.deactivated_at, gone.body.deactivated_at);

    const change = await call('PATCH', `/v1/users/${user.id}`, { key: org.liveKey, body: { role: 'developer' } });
    assert.equal(change.status, 409);
    assert.equal(change.body.error.code, 'user_deactivated');
  });

  it('refuses a second active user with the same email, in any letter case, until the first is deactivated', async () => {
    const first = await addUser('Sam@Example.com', 'developer');
    const dup = await call('POST', '/v1/users', { key: org.liveKey, body: { email: 'sam@example.COM', role: 'viewer' } });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, 'resource_already_exists');
    assert.equal(dup.body.error.param, 'email');
    assert.equal((await listUsers()).length, 2);

    await call('DELETE', `/v1/users/${first.id}`, { key: org.liveKey });
    const readded = await addUser('sam@example.com', 'viewer');
    assert.notEqual(readded.id, first.id);
    // Another organization may have a user with the same address.
    const other = await createOrganization();
    assert.equal((await call('POST', '/v1/users', { key: other.liveKey, body: { email: 'sam@example.com', role: 'viewer' } })).status, 201);
  });

  it("stops a deactivated user's keys at once, in every API process", async function () {
    this.timeout(60_000);
    await addUser('second-owner@example.com', 'owner');
    const port = await freePort();
    const second = await spawnApiProcess(port);
    const secondUrl = `http://127.0.0.1:${port}`;
    try {
      // Both processes have the owner's principals cached before the deactivation.
      for (const baseUrl of [stack().apiUrl, secondUrl]) {
        assert.equal((await call('GET', '/v1/models', { key: org.liveKey, baseUrl })).status, 200);
        assert.equal((await call('GET', '/v1/models', { key: org.testKey, baseUrl })).status, 200);
      }

      // Deactivating oneself is allowed while another owner remains.
      const res = await call('DELETE', `/v1/users/${ownerId}`, { key: org.liveKey });
      assert.equal(res.status, 200);
      assert.ok(res.body.deactivated_at);

      for (const baseUrl of [stack().apiUrl, secondUrl]) {
        for (const key of [org.liveKey, org.testKey]) {
          const refused = await call('GET', '/v1/models', { key, baseUrl });
          assert.equal(refused.status, 401);
          assert.equal(refused.body.error.code, 'invalid_api_key');
        }
      }
    } finally {
      await killHard(second);
    }
  });

  it("changes what a user's keys may do as soon as the user's role changes", async () => {
    await addUser('second-owner@example.com', 'owner');
    const demoted = await call('PATCH', `/v1/users/${ownerId}`, { key: org.liveKey, body: { role: 'admin' } });
    assert.equal(demoted.status, 200);
    const keys = await call('GET', '/v1/api-keys', { key: org.liveKey });
    assert.equal(keys.status, 200);
    assert.deepEqual(
      keys.body.data.map((k: { role: string }) => k.role),
      ['admin'],
    );

    await call('PATCH', `/v1/users/${ownerId}`, { key: org.liveKey, body: { role: 'developer' } });
    const denied = await call('GET', '/v1/users', { key: org.liveKey });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 'insufficient_role');
    assert.match(denied.body.error.message, /developer/);
  });

  it('keeps the last active owner: no demotion, no deactivation', async () => {
    const formerOwner = await addUser('former@example.com', 'owner');
    await call('DELETE', `/v1/users/${formerOwner.id}`, { key: org.liveKey });

    for (const [method, body] of [
      ['PATCH', { role: 'admin' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/v1/users/${ownerId}`, { key: org.liveKey, body });
      assert.equal(res.status, 409, method);
      assert.equal(res.body.error.code, 'last_owner');
      assert.match(res.body.error.message, /another user owner/);
    }
    const owner = (await listUsers()).find((u) => u.id === ownerId);
    assert.equal(owner?.role, 'owner');
    assert.equal(owner?.deactivated_at, null);
  });

  it('keeps one owner when two owners are demoted at the same moment', async () => {
    const other = await addUser('rival@example.com', 'owner');
    const results = await Promise.all([ownerId, other.id].map((id) => call('PATCH', `/v1/users/${id}`, { key: org.liveKey, body: { role: 'admin' } })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
    assert.equal(results.find((r) => r.status === 409)?.body.error.code, 'last_owner');
    const owners = (await listUsers()).filter((u) => u.role === 'owner');
    assert.equal(owners.length, 1);
  });

  it('lets an admin manage users up to admin, and never an owner', async () => {
    const admin = await keyWithRole('admin');
    const tooHigh = await call('POST', '/v1/users', { key: admin, body: { email: 'boss@example.com', role: 'owner' } });
    assert.equal(tooHigh.status, 403);
    assert.equal(tooHigh.body.error.code, 'insufficient_role');
    assert.equal(tooHigh.body.error.param, 'role');
    for (const [method, body] of [
      ['PATCH', { role: 'viewer' }],
      ['PATCH', { name: 'renamed' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/v1/users/${ownerId}`, { key: admin, body });
      assert.equal(res.status, 403, `${method} ${JSON.stringify(body)}`);
      assert.equal(res.body.error.code, 'insufficient_role');
    }

    const colleague = await addUser('colleague@example.com', 'admin', admin);
    const promote = await call('PATCH', `/v1/users/${colleague.id}`, { key: admin, body: { role: 'owner' } });
    assert.equal(promote.status, 403);
    assert.equal(promote.body.error.param, 'role');
    assert.equal((await call('PATCH', `/v1/users/${colleague.id}`, { key: admin, body: { role: 'developer' } })).body.role, 'developer');
    assert.equal((await call('DELETE', `/v1/users/${colleague.id}`, { key: admin })).status, 200);
    assert.equal((await listUsers()).find((u) => u.id === ownerId)?.role, 'owner');
  });

  it('refuses users to developers, viewers and keys without the api_keys:manage scope', async () => {
    const keys = [await keyWithRole('developer'), await keyWithRole('viewer'), await keyWithRole('owner', { scopes: ['images:write'] })];
    for (const key of keys) {
      for (const [method, path, body] of [
        ['GET', '/v1/users', undefined],
        ['POST', '/v1/users', { email: 'x@example.com', role: 'viewer' }],
        ['PATCH', `/v1/users/${ownerId}`, { role: 'viewer' }],
        ['DELETE', `/v1/users/${ownerId}`, undefined],
      ] as const) {
        const res = await call(method, path, { key, body });
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(res.body.error.code, 'insufficient_role');
      }
    }
    assert.deepEqual(
      (await listUsers()).map((u) => u.id),
      [ownerId],
    );
  });

  it('lets a test key list users but not change them, since users are not sandboxed', async () => {
    assert.deepEqual(
      (await listUsers(org.testKey)).map((u) => u.id),
      [ownerId],
    );
    const user = await addUser('dev@example.com', 'developer');
    for (const [method, path, body] of [
      ['POST', '/v1/users', { email: 'sandbox@example.com', role: 'viewer' }],
      ['PATCH', `/v1/users/${user.id}`, { role: 'viewer' }],
      ['DELETE', `/v1/users/${user.id}`, undefined],
    ] as const) {
      const res = await call(method, path, { key: org.testKey, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error.code, 'insufficient_role');
      assert.match(res.body.error.message, /live key/);
    }
    const users = await listUsers();
    assert.equal(users.length, 2);
    assert.deepEqual(
      users.find((u) => u.id === user.id),
      user,
    );
  });

  it('answers 404 for an unknown user and for a user of another organization', async () => {
    const other = await createOrganization();
    const theirs = await call('POST', '/v1/users', { key: other.liveKey, body: { email: 'theirs@example.com', role: 'viewer' } });
    for (const id of ['usr_missing', theirs.body.id]) {
      for (const [method, body] of [
        ['PATCH', { role: 'developer' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, `/v1/users/${id}`, { key: org.liveKey, body });
        assert.equal(res.status, 404, `${method} ${id}`);
        assert.equal(res.body.error.code, 'resource_not_found');
      }
    }
    const page = await call('GET', `/v1/users?starting_after=${theirs.body.id}`, { key: org.liveKey });
    assert.equal(page.status, 404);
    assert.equal(page.body.error.param, 'starting_after');
    const untouched = (await listUsers(other.liveKey)).find((u) => u.id === theirs.body.id);
    assert.equal(untouched?.role, 'viewer');
    assert.equal(untouched?.deactivated_at, null);
  });

  const badCreates: [string, unknown, string][] = [
    ['no email', { role: 'viewer' }, 'email'],
    ['an email without a domain', { email: 'ada', role: 'viewer' }, 'email'],
    ['an email with a space', { email: 'ada lovelace@example.com', role: 'viewer' }, 'email'],
    ['an email over 254 characters', { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`, role: 'viewer' }, 'email'],
    ['an email that is not a string', { email: 42, role: 'viewer' }, 'email'],
    ['no role', { email: 'ada@example.com' }, 'role'],
    ['an unknown role', { email: 'ada@example.com', role: 'superuser' }, 'role'],
    ['an empty name', { email: 'ada@example.com', role: 'viewer', name: '' }, 'name'],
    ['an unknown field', { email: 'ada@example.com', role: 'viewer', password: 'hunter2' }, 'password'],
  ];
  for (const [what, body, param] of badCreates) {
    it(`answers 400 for a user with ${what}, and adds no one`, async () => {
      const res = await call('POST', '/v1/users', { key: org.liveKey, body });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param);
      assert.equal((await listUsers()).length, 1);
    });
  }

  it('answers 400 for a PATCH that is empty, names an unknown role or another field', async () => {
    const user = await addUser('ada@example.com', 'viewer');
    for (const [body, param] of [
      [{}, 'body'],
      [{ role: 'root' }, 'role'],
      [{ email: 'new@example.com' }, 'email'],
    ] as const) {
      const res = await call('PATCH', `/v1/users/${user.id}`, { key: org.liveKey, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param);
    }
    assert.equal((await listUsers()).find((u) => u.id === user.id)?.role, 'viewer');
  });

  it('answers 400 for bad list parameters', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'role=owner']) {
      const res = await call('GET', `/v1/users?${q}`, { key: org.liveKey });
      assert.equal(res.status, 400, q);
      assert.equal(res.body.error.code, 'validation_failed');
    }
  });
});
