import assert from 'node:assert/strict';
import { prodStack } from './fixture';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodGenerationIds } from './helpers';

// A key's rate limit is one token bucket in Postgres shared by every API process: requests that
// alternate between the two processes are admitted up to the limit in total, not per process.

describe('rate limits seen by both API processes', function () {
  this.timeout(60_000);

  it("admits exactly the organization's limit in total across both processes, then 429 rate_limited with Retry-After, charging nothing for the refused", async () => {
    const { apiUrls } = prodStack();
    const limit = 4;
    const org = await createProdOrganization();
    const patched = await prodCall('PATCH', `/admin/v1/organizations/${org.id}`, { key: prodStack().config.adminToken, body: { rate_limit_per_minute: limit } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));

    const results = [];
    for (let i = 0; i < 2 * limit; i++) {
      results.push(await prodCall('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: `request ${i}` }, baseUrl: apiUrls[i % 2] }));
    }
    assert.deepEqual(
      results.map((r) => r.status),
      [...Array(limit).fill(200), ...Array(limit).fill(429)],
    );
    // The operator's change reached both processes: each answers with the new limit.
    assert.deepEqual(new Set(results.map((r) => r.headers.get('ratelimit-limit'))), new Set([String(limit)]));
    for (const refused of results.slice(limit)) {
      assert.equal(refused.body.error.type, 'rate_limit_error');
      assert.equal(refused.body.error.code, 'rate_limited');
      assert.ok(refused.body.error.message);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60 / limit, `Retry-After ${refused.headers.get('retry-after')}`);
    }

    const admitted = results.slice(0, limit).map((r) => r.body.id as string);
    assert.deepEqual((await prodGenerationIds(org.id)).sort(), admitted.sort());
    const charged = results.slice(0, limit).reduce((sum, r) => sum + (r.body.charged_credits as number), 0);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000 - charged, reservedCredits: 0 });
  });

  it('counts each key on its own: another key of the same organization is still admitted by either process', async () => {
    const { apiUrls } = prodStack();
    const org = await createProdOrganization();
    await prodCall('PATCH', `/admin/v1/organizations/${org.id}`, { key: prodStack().config.adminToken, body: { rate_limit_per_minute: 1 } });
    const other = await prodCall('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'second' }, baseUrl: apiUrls[0] });
    assert.equal(other.status, 201, JSON.stringify(other.body));
    // The first key spent its one token on creating the second.
    const refused = await prodCall('GET', '/v1/api-keys', { key: org.liveKey, baseUrl: apiUrls[1] });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.equal((await prodCall('GET', '/v1/api-keys', { key: other.body.secret, baseUrl: apiUrls[1] })).status, 200);
    assert.equal((await prodCall('GET', '/v1/api-keys', { key: other.body.secret, baseUrl: apiUrls[0] })).status, 429);
  });
});
