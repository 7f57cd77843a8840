import assert from 'node:assert/strict';
import { call, createOrganization } from '../helpers/http';

// GET /v1/api-keys/current: any key reads what it is (the dashboard signs in with it).

describe('GET /v1/api-keys/current', () => {
  it('answers the calling key and its organization, for a live owner key', async () => {
    const org = await createOrganization({ plan: 'studio' });
    const res = await call('GET', '/v1/api-keys/current', { key: org.liveKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'api_key');
    assert.equal(res.body.environment, 'live');
    assert.equal(res.body.role, 'owner');
    assert.deepEqual(res.body.scopes, []);
    assert.ok(org.liveKey.startsWith(res.body.prefix));
    assert.equal(res.body.secret, undefined, 'never the secret');
    assert.deepEqual(res.body.organization, { id: org.id, plan: 'studio', multiplier: 1.6, enterprise: false, paused: false });
  });

  it('answers a scoped viewer key with its own effective role and scopes, though it may not list keys', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'reader', role: 'viewer', scopes: ['usage:read'] } });
    assert.equal(created.status, 201);
    const viewer = created.body.secret as string;
    assert.equal((await call('GET', '/v1/api-keys', { key: viewer })).status, 403);
    const res = await call('GET', '/v1/api-keys/current', { key: viewer });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, created.body.id);
    assert.equal(res.body.name, 'reader');
    assert.equal(res.body.role, 'viewer');
    assert.deepEqual(res.body.scopes, ['usage:read']);
    assert.equal(res.body.organization.id, org.id);
  });

  it('answers a test key as a test key', async () => {
    const org = await createOrganization();
    const res = await call('GET', '/v1/api-keys/current', { key: org.testKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.environment, 'test');
  });

  it('refuses a missing, malformed or revoked key with 401', async () => {
    const org = await createOrganization();
    assert.equal((await call('GET', '/v1/api-keys/current')).status, 401);
    assert.equal((await call('GET', '/v1/api-keys/current', { key: 'sk_live_nope' })).status, 401);
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'doomed' } });
    assert.equal((await call('DELETE', `/v1/api-keys/${created.body.id}`, { key: org.liveKey })).status, 200);
    const res = await call('GET', '/v1/api-keys/current', { key: created.body.secret });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.type, 'authentication_error');
  });
});
