import assert from 'node:assert/strict';
import { prodStack } from './fixture';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodGenerationIds } from './helpers';

// Each API process caches principals in memory (api/guards/principal-cache.ts); a revocation through one
// process must hold in the other from the very next request, though its cache had the key.

describe('revocation seen by both API processes', function () {
  this.timeout(60_000);

  it('answers 401 invalid_api_key on the other process from the very next request after a revocation, charging nothing', async () => {
    const [first, second] = prodStack().apiUrls;
    const org = await createProdOrganization();
    const created = await prodCall('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'to revoke' }, baseUrl: first });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const secret: string = created.body.secret;
    // Both processes have the key's principal cached before the revocation.
    for (const baseUrl of [first, second]) {
      assert.equal((await prodCall('GET', '/v1/balance', { key: secret, baseUrl })).status, 200);
    }

    const revoked = await prodCall('DELETE', `/v1/api-keys/${created.body.id}`, { key: org.liveKey, baseUrl: first });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.ok(revoked.body.revoked_at);

    for (const baseUrl of [second, first]) {
      const res = await prodCall('POST', '/v1/images', { key: secret, body: { model: 'flux-schnell', prompt: 'too late' }, baseUrl });
      assert.equal(res.status, 401, `${baseUrl}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.type, 'authentication_error');
      assert.equal(res.body.error.code, 'invalid_api_key');
      assert.ok(res.body.error.message);
    }
    // The organization's other key still works in both.
    for (const baseUrl of [first, second]) {
      assert.equal((await prodCall('GET', '/v1/balance', { key: org.liveKey, baseUrl })).status, 200);
    }
    assert.deepEqual(await prodGenerationIds(org.id), []);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('stops every process from spending for a paused organization from the next request, and resumes when unpaused', async () => {
    const [first, second] = prodStack().apiUrls;
    const org = await createProdOrganization();
    for (const baseUrl of [first, second]) {
      assert.equal((await prodCall('GET', '/v1/balance', { key: org.liveKey, baseUrl })).status, 200);
    }
    const admin = prodStack().config.adminToken;
    assert.equal((await prodCall('PATCH', `/admin/v1/organizations/${org.id}`, { key: admin, body: { paused: true }, baseUrl: first })).status, 200);
    for (const baseUrl of [second, first]) {
      const res = await prodCall('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'paused' }, baseUrl });
      assert.equal(res.status, 403, `${baseUrl}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'organization_paused');
    }
    assert.equal((await prodCall('PATCH', `/admin/v1/organizations/${org.id}`, { key: admin, body: { paused: false }, baseUrl: second })).status, 200);
    const resumed = await prodCall('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'resumed' }, baseUrl: first });
    assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
    assert.deepEqual(await prodGenerationIds(org.id), [resumed.body.id]);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000 - resumed.body.charged_credits, reservedCredits: 0 });
  });
});
