import assert from 'node:assert/strict';
import { takeRateLimitToken } from '../../db/rate-limits';
import { call, createOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { startExtraApi, stack } from '../helpers/stack';

describe('rate limits', () => {
  it('admits a burst of the per-minute limit, then answers 429 with Retry-After and RateLimit headers', async () => {
    const org = await createOrganization();
    await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { rate_limit_per_minute: 3 } });
    const second = await startExtraApi({});
    const remaining: string[] = [];
    // Alternate between two API processes: the bucket is shared, not per process.
    for (const baseUrl of [stack().apiUrl, second.url, stack().apiUrl]) {
      const res = await call('GET', '/v1/api-keys', { key: org.liveKey, baseUrl });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-limit'), '3');
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
    }
    assert.deepEqual(remaining, ['2', '1', '0']);

    const refused = await call('GET', '/v1/api-keys', { key: org.liveKey, baseUrl: second.url });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.type, 'rate_limit_error');
    assert.equal(refused.body.error.code, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 19 && retryAfter <= 20, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.ok(Number(refused.headers.get('ratelimit-reset')) > 0);
    await second.close();
  });

  it('counts each key separately and uses RATE_LIMIT_PER_MINUTE without an override', async () => {
    const org = await createOrganization();
    await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { rate_limit_per_minute: 1 } });
    const other = await createKeyWithRole(org.id, 'owner');
    assert.equal((await call('GET', '/v1/api-keys', { key: org.liveKey })).status, 200);
    assert.equal((await call('GET', '/v1/api-keys', { key: org.liveKey })).status, 429);
    assert.equal((await call('GET', '/v1/api-keys', { key: other })).status, 200);

    const plain = await createOrganization();
    const res = await call('GET', '/v1/api-keys', { key: plain.liveKey });
    assert.equal(res.headers.get('ratelimit-limit'), String(stack().apiDeps.rateLimitPerMinute));
  });

  it('refills at limit/60 tokens per second', async () => {
    const org = await createOrganization();
    const keyId = (await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first()).id;
    // 6 per minute: one token every 10 s.
    for (let i = 0; i < 6; i++) assert.ok((await takeRateLimitToken(stack().knex, keyId, 6)).allowed);
    const empty = await takeRateLimitToken(stack().knex, keyId, 6);
    assert.equal(empty.allowed, false);
    assert.ok(empty.retryAfterSeconds >= 9 && empty.retryAfterSeconds <= 10, `Retry-After ${empty.retryAfterSeconds}`);
    // As if 10.5 s had passed: exactly one token is back.
    await stack()
      .knex('rate_limit_state')
      .where({ api_key_id: keyId })
      .update({ tat: stack().knex.raw('tat - 10.5') });
    assert.ok((await takeRateLimitToken(stack().knex, keyId, 6)).allowed);
    assert.equal((await takeRateLimitToken(stack().knex, keyId, 6)).allowed, false);
  });

  it('admits exactly the limit under concurrency, for a limit that is not a divisor of 60', async () => {
    const org = await createOrganization();
    const keyId = (await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first()).id;
    const results = await Promise.all(Array.from({ length: 30 }, () => takeRateLimitToken(stack().knex, keyId, 7)));
    assert.equal(results.filter((r) => r.allowed).length, 7);
  });
});
