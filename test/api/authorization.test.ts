import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

const image = { model: 'flux-schnell', prompt: 'authorized?' };

describe('authorization', () => {
  let org: TestOrganization;
  let generationId: string;
  before(async () => {
    org = await createOrganization({ credits: 10_000 });
    generationId = (await call('POST', '/v1/images', { key: org.liveKey, body: image })).body.id;
  });

  it('lets a viewer read but not generate', async () => {
    const viewer = await createKeyWithRole(org.id, 'viewer');
    assert.equal((await call('GET', `/v1/generations/${generationId}`, { key: viewer })).status, 200);
    const denied = await call('POST', '/v1/images', { key: viewer, body: image });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.type, 'permission_error');
    assert.equal(denied.body.error.code, 'insufficient_role');
    assert.match(denied.body.error.message, /viewer/);
  });

  for (const role of ['developer', 'admin', 'owner'] as const) {
    it(`lets a ${role} generate and read`, async () => {
      const key = await createKeyWithRole(org.id, role);
      assert.equal((await call('POST', '/v1/images', { key, body: image })).status, 200);
      assert.equal((await call('GET', `/v1/generations/${generationId}`, { key })).status, 200);
      await assertLedgerBalanced(org.id);
    });
  }

  it('narrows a key to its scopes, and treats empty scopes as full access', async () => {
    const readOnly = await createKeyWithRole(org.id, 'owner', { scopes: ['generations:read'] });
    const writeOnly = await createKeyWithRole(org.id, 'owner', { scopes: ['images:write'] });
    const full = await createKeyWithRole(org.id, 'developer', { scopes: [] });

    const noWrite = await call('POST', '/v1/images', { key: readOnly, body: image });
    assert.equal(noWrite.status, 403);
    assert.equal(noWrite.body.error.code, 'insufficient_role');
    assert.match(noWrite.body.error.message, /images:write/);
    assert.equal((await call('GET', `/v1/generations/${generationId}`, { key: readOnly })).status, 200);

    assert.equal((await call('POST', '/v1/images', { key: writeOnly, body: image })).status, 200);
    assert.equal((await call('GET', `/v1/generations/${generationId}`, { key: writeOnly })).status, 403);

    assert.equal((await call('POST', '/v1/images', { key: full, body: image })).status, 200);
    await assertLedgerBalanced(org.id);
  });

  it('checks authorization before validation and charges nothing when it refuses', async () => {
    const other = await createOrganization({ credits: 500 });
    const viewer = await createKeyWithRole(other.id, 'viewer');
    const res = await call('POST', '/v1/images', { key: viewer, body: { model: 'flux-schnell' } });
    assert.equal(res.status, 403);
    assert.deepEqual(await assertLedgerBalanced(other.id), { availableCredits: 500, reservedCredits: 0 });
  });
});

describe('a paused organization', () => {
  it('is refused credit-consuming requests with 403 organization_paused, still reads, and resumes when unpaused', async () => {
    const org = await createOrganization({ credits: 1000 });
    const before = await call('POST', '/v1/images', { key: org.liveKey, body: image });
    const admin = { key: stack().adminToken };

    const paused = await call('PATCH', `/admin/v1/organizations/${org.id}`, { ...admin, body: { paused: true } });
    assert.equal(paused.status, 200);
    assert.equal(paused.body.paused, true);

    for (const key of [org.liveKey, org.testKey]) {
      const refused = await call('POST', '/v1/images', { key, body: image });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'organization_paused');
    }
    assert.equal((await call('GET', `/v1/generations/${before.body.id}`, { key: org.liveKey })).status, 200);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000 - before.body.charged_credits, reservedCredits: 0 });

    await call('PATCH', `/admin/v1/organizations/${org.id}`, { ...admin, body: { paused: false } });
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: image })).status, 200);
  });
});
