import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { startPrincipalChangeListener, type PrincipalChangeListener } from '../../db/principal-changes';
import { silentLogger } from '../../lib/logger';
import { waitFor } from '../helpers/http';
import { stack } from '../helpers/stack';
import { startPostgresProxy, type TcpProxy } from '../helpers/tcp-proxy';

// The principal cache trusts its entries only while this listener keeps proving it is current
// (api/guards/principal-cache.ts). After an outage it must reconnect by itself, and drop what it cached,
// or the API would go to the database on every request until restarted.

describe('principal change listener across a Postgres outage', function () {
  this.timeout(30_000);

  let proxy: TcpProxy;
  let listener: PrincipalChangeListener;
  let changes = 0;

  const confirmedSince = (t: number) => async () => listener.confirmedThrough() > t;

  beforeEach(async () => {
    const proxied = await startPostgresProxy(stack().config.databaseUrl!);
    proxy = proxied.proxy;
    listener = await startPrincipalChangeListener(proxied.databaseUrl, silentLogger);
    changes = 0;
    listener.onChange(() => (changes += 1));
    await waitFor(confirmedSince(performance.now()), 5_000, 'a first confirmation');
  });

  afterEach(async () => {
    await listener.close();
    await proxy.close();
  });

  it('reconnects and confirms again once a database that refused connections is back, forgetting the cache', async () => {
    await proxy.refuse();
    const backAt = performance.now();
    await proxy.restore();
    await waitFor(confirmedSince(backAt), 10_000, 'a confirmation after the restart');
    assert.ok(changes >= 1, 'a reconnect empties the cache: changes made while nobody listened are unknown');
  });

  it('gives up on a connection that stops answering and confirms again over a new one', async () => {
    // The old connection is neither answered nor closed, ever: only a ping timeout can notice.
    proxy.blackhole();
    const cutAt = performance.now();
    await waitFor(confirmedSince(cutAt), 15_000, 'a confirmation over a new connection');
    assert.ok(changes >= 1, 'a reconnect empties the cache');
  });
});
