import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { createPrincipalCache, FRESHNESS_MS, SETTLE_MS } from '../../../api/guards/principal-cache';
import { startPrincipalChangeListener, type PrincipalChangeListener } from '../../../db/principal-changes';
import { hashSecret } from '../../../domain/api-key-secret';
import { silentLogger } from '../../../lib/logger';
import { createOrganization, waitFor } from '../../helpers/http';
import { stack } from '../../helpers/stack';

describe('principal cache and its change listener', () => {
  let listener: PrincipalChangeListener;
  before(async () => {
    listener = await startPrincipalChangeListener(stack().config.databaseUrl!, silentLogger);
  });
  after(() => listener.close());

  /**
   * Waits for the event a cache acts on: the listener proving that every change committed so far
   * has reached it (a ping sent after the commit came back, and notifications arrive in commit order).
   */
  async function changesDelivered(): Promise<void> {
    const committed = performance.now();
    await waitFor(async () => (listener.confirmedThrough() > committed ? true : undefined), 5_000, 'the listener to confirm the change');
  }

  function countingCache(l: PrincipalChangeListener | undefined) {
    const counter = { loads: 0 };
    const cache = createPrincipalCache(async (hash) => {
      counter.loads += 1;
      return stack().repos.apiKeys.findPrincipalBySecretHash(hash);
    }, l);
    return { cache, counter };
  }

  it('keeps confirming that it has seen every committed change', async () => {
    const before = performance.now();
    await waitFor(async () => (listener.confirmedThrough() > before ? true : undefined), 2_000);
  });

  it('serves a known key from memory, and reloads it after any change to keys, users or organizations', async () => {
    const org = await createOrganization();
    const hash = hashSecret(org.liveKey);
    await waitFor(async () => (performance.now() - listener.confirmedThrough() < FRESHNESS_MS ? true : undefined), 2_000);
    const { cache, counter } = countingCache(listener);
    assert.equal((await cache.find(hash))?.organizationId, org.id);
    assert.equal((await cache.find(hash))?.organizationId, org.id);
    assert.equal(counter.loads, 1);

    for (const table of ['organizations', 'users', 'api_keys'] as const) {
      const loads: number = counter.loads;
      await stack()
        .knex(table)
        .where(table === 'organizations' ? { id: org.id } : { organization_id: org.id })
        .update({ created_at: stack().knex.raw('created_at') });
      await changesDelivered();
      await cache.find(hash);
      assert.equal(counter.loads, loads + 1, `a change to ${table} empties the cache`);
    }
  });

  it('never caches an unknown key, and sees a revocation after SETTLE_MS', async () => {
    const org = await createOrganization();
    const { cache, counter } = countingCache(listener);
    assert.equal(await cache.find(hashSecret('sk_live_unknown')), undefined);
    assert.equal(await cache.find(hashSecret('sk_live_unknown')), undefined);
    assert.equal(counter.loads, 2);

    const hash = hashSecret(org.liveKey);
    assert.ok(await cache.find(hash));
    await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).update({ revoked_at: new Date() });
    // Not a wait for the notification: SETTLE_MS is the documented bound (api/guards/principal-cache.ts)
    // after which every process sees a committed change whether its notification arrived or not.
    await setTimeout(SETTLE_MS);
    assert.equal(await cache.find(hash), undefined);
  });

  it('does not cache a principal whose load raced a change', async () => {
    const org = await createOrganization();
    const hash = hashSecret(org.liveKey);
    let loads = 0;
    const cache = createPrincipalCache(async (h: string) => {
      loads += 1;
      const principal = await stack().repos.apiKeys.findPrincipalBySecretHash(h);
      // The key is revoked after it was read but before the read is cached.
      if (loads === 1) {
        await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).update({ revoked_at: new Date() });
        await changesDelivered();
      }
      return principal;
    }, listener);
    assert.ok(await cache.find(hash), 'the request that was already in flight still completes');
    assert.equal(await cache.find(hash), undefined);
    assert.equal(loads, 2);
  });

  it('goes to the database on every request while its listener is silent', async () => {
    const org = await createOrganization();
    const silent: PrincipalChangeListener = { confirmedThrough: () => performance.now() - FRESHNESS_MS - 1, onChange: () => undefined, close: async () => undefined };
    for (const l of [silent, undefined]) {
      const { cache, counter } = countingCache(l);
      await cache.find(hashSecret(org.liveKey));
      await cache.find(hashSecret(org.liveKey));
      assert.equal(counter.loads, 2);
    }
  });

  it('reconnects after its connection is killed, empties the cache and resumes confirming', async () => {
    const own = await startPrincipalChangeListener(stack().config.databaseUrl!, silentLogger);
    let changes = 0;
    own.onChange(() => void (changes += 1));
    try {
      await stack().knex.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN principal_changes%' OR query LIKE 'SELECT pg_notify%'`);
      const killedAt = performance.now();
      await waitFor(async () => (changes > 0 && own.confirmedThrough() > killedAt ? true : undefined), 5_000);
    } finally {
      await own.close();
    }
  });
});
