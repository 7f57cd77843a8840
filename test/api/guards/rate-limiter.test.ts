import assert from 'node:assert/strict';
import { createRateLimiter } from '../../../api/guards/rate-limiter';
import { createKnex } from '../../../db/knex';
import { takeRateLimitTokens } from '../../../db/rate-limits';
import { silentLogger } from '../../../lib/logger';
import { createOrganization } from '../../helpers/http';
import { stack } from '../../helpers/stack';

async function liveKeyId(): Promise<string> {
  const org = await createOrganization();
  return (await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first()).id;
}

/** Tokens the shared bucket holds right now (a zero-token take only reads). */
async function sharedRemaining(keyId: string, limit: number): Promise<number> {
  return (await takeRateLimitTokens(stack().knex, keyId, limit, 0)).remaining;
}

describe('leasing rate limiter', () => {
  it('never admits more than the shared bucket holds, across processes that lease', async () => {
    const keyId = await liveKeyId();
    const limit = 600;
    const processes = [createRateLimiter(stack().knex, silentLogger), createRateLimiter(stack().knex, silentLogger)];
    const started = Date.now();
    let admitted = 0;
    for (let round = 0; round < 15; round++) {
      const results = await Promise.all(processes.flatMap((p) => Array.from({ length: 100 }, () => p.take(keyId, limit))));
      admitted += results.filter((r) => r.allowed).length;
    }
    // The bucket refills at limit/60 tokens per second while the test runs.
    const refilled = Math.ceil(((Date.now() - started) / 1000) * (limit / 60));
    assert.ok(admitted >= limit && admitted <= limit + refilled, `admitted ${admitted}, limit ${limit}, refill ${refilled}`);
    await Promise.all(processes.map((p) => p.close()));
  });

  it('admits steady traffic from memory: far fewer bucket round trips than requests', async () => {
    const keyId = await liveKeyId();
    const counted = createKnex(stack().config.databaseUrl!);
    let roundTrips = 0;
    counted.on('query', (q: { sql: string }) => void (q.sql.includes('take_rate_limit_tokens') && (roundTrips += 1)));
    const limiter = createRateLimiter(counted, silentLogger);
    for (let i = 0; i < 500; i++) assert.ok((await limiter.take(keyId, 1_000_000)).allowed);
    assert.ok(roundTrips < 50, `${roundTrips} round trips for 500 requests`);
    await limiter.close();
    await counted.destroy();
  });

  it('gives unspent leased tokens back to the shared bucket', async () => {
    const keyId = await liveKeyId();
    const limit = 6_000; // leases grow to 300 tokens
    const limiter = createRateLimiter(stack().knex, silentLogger);
    for (let i = 0; i < 200; i++) await limiter.take(keyId, limit);
    const whileLeased = await sharedRemaining(keyId, limit);
    assert.ok(whileLeased < limit - 200, `tokens are parked in the lease (${whileLeased} left in the bucket)`);
    await limiter.close();
    const afterClose = await sharedRemaining(keyId, limit);
    assert.ok(afterClose > whileLeased && afterClose >= limit - 200, `bucket after close: ${afterClose}`);
  });

  it('answers exact headers for a small limit, and 429 with Retry-After once the bucket is empty', async () => {
    const keyId = await liveKeyId();
    const limiter = createRateLimiter(stack().knex, silentLogger);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.take(keyId, 3));
    assert.deepEqual(
      results.map((r) => [r.allowed, r.remaining]),
      [
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ],
    );
    assert.ok(results[3]!.retryAfterSeconds >= 19 && results[3]!.retryAfterSeconds <= 20);
    assert.deepEqual(
      results.slice(0, 3).map((r) => r.resetSeconds),
      [20, 40, 60],
    );
    await limiter.close();
  });
});
