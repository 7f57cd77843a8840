import assert from 'node:assert/strict';
import { Client, type Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { API_QUERY_TIMEOUT_MS, connectApiTemporal, createApiKnex } from '../../api/dependency-connections';
import { DEPENDENCY_RETRY_AFTER_S, TEMPORAL_RPC_TIMEOUT_MS } from '../../api/dependency-health';
import { startGuardServices, type GuardServices } from '../../api/guards/guard-services';
import { createRepos } from '../../db/repos';
import { providerCallbackUrl } from '../../domain/callback-token';
import { newId } from '../../lib/ids';
import { silentLogger } from '../../lib/logger';
import { call, createOrganization, waitFor, type HttpResult, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';
import { startPostgresProxy, startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

// Postgres or Temporal unreachable (decisions §2): a fast 503 service_unavailable with
// Retry-After, never a 500 or a hang, and service again as soon as the dependency is back, without
// a restart. A second API reaches the shared test Postgres and Temporal through TCP proxies that
// freeze (a SIGSTOPped server: connections accepted, nothing answered) or refuse (a server that is
// down); the rest of the stack is untouched.

/** /healthz answers within 2 s; the margin is for a loaded two-core machine. */
const HEALTHZ_BOUND_MS = 2_500;
const SLACK_MS = 3_000;

async function timed(request: () => Promise<HttpResult>): Promise<HttpResult & { ms: number }> {
  const started = Date.now();
  const res = await request();
  return { ...res, ms: Date.now() - started };
}

function assertServiceUnavailable(res: HttpResult, names: RegExp): void {
  assert.equal(res.status, 503, JSON.stringify(res.body));
  assert.equal(res.body.error.code, 'service_unavailable');
  assert.equal(res.body.error.type, 'api_error');
  assert.match(res.body.error.message, names);
  assert.match(res.body.error.message, /Retry/);
  assert.equal(res.headers.get('Retry-After'), String(DEPENDENCY_RETRY_AFTER_S));
}

describe('Postgres or Temporal unreachable', function () {
  this.timeout(40_000);

  let postgresProxy: TcpProxy;
  let temporalProxy: TcpProxy;
  let knex: Knex;
  let guards: GuardServices;
  let connection: Connection;
  let api: { url: string; close(): Promise<void> };
  let org: TestOrganization;

  const healthz = () => call('GET', '/healthz', { baseUrl: api.url });
  const get = (path: string, key: string) => call('GET', path, { key, baseUrl: api.url });

  before(async () => {
    // The API's own connection settings (api/dependency-connections.ts), pointed at the proxies.
    const proxied = await startPostgresProxy(stack().config.databaseUrl!);
    postgresProxy = proxied.proxy;
    const [temporalHost, temporalPort] = stack().config.temporalAddress!.split(':');
    temporalProxy = await startTcpProxy({ host: temporalHost!, port: Number(temporalPort) });
    const { databaseUrl } = proxied;

    knex = createApiKnex(databaseUrl, { poolMax: 5 });
    const repos = createRepos(knex);
    // The principal cache's LISTEN connection goes through the proxy too, so its reconnect is tested.
    guards = await startGuardServices(knex, repos, databaseUrl, silentLogger);
    connection = await connectApiTemporal(temporalProxy.address);
    const temporal = new Client({ connection });
    api = await startExtraApi({ knex, repos, temporal, principals: guards.principals, rateLimiter: guards.rateLimiter });
    org = await createOrganization();
  });

  afterEach(async () => {
    await postgresProxy.restore();
    await temporalProxy.restore();
    await waitFor(async () => (await healthz()).status === 200, 20_000, 'the API to see both dependencies again');
  });

  after(async () => {
    await api.close();
    await guards.close();
    await connection.close();
    await knex.destroy();
    await postgresProxy.close();
    await temporalProxy.close();
  });

  it('answers /healthz 200 {status: "ok"} while both dependencies answer', async () => {
    const res = await timed(healthz);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
    assert.ok(res.ms < HEALTHZ_BOUND_MS, `${res.ms} ms`);
  });

  for (const dependency of ['postgres', 'temporal'] as const) {
    for (const outage of ['frozen', 'refused'] as const) {
      it(`answers /healthz 503 naming ${dependency} within 2 s while ${dependency} is ${outage}, and 200 again once it is back`, async () => {
        const proxy = dependency === 'postgres' ? postgresProxy : temporalProxy;
        if (outage === 'frozen') proxy.freeze();
        else await proxy.refuse();

        const res = await timed(healthz);
        assert.equal(res.status, 503, JSON.stringify(res.body));
        assert.ok(res.ms < HEALTHZ_BOUND_MS, `answered in ${res.ms} ms`);
        assert.deepEqual(res.body, {
          status: 'unavailable',
          postgres: dependency === 'postgres' ? 'unavailable' : 'ok',
          temporal: dependency === 'temporal' ? 'unavailable' : 'ok',
        });
        assert.equal(res.headers.get('Retry-After'), String(DEPENDENCY_RETRY_AFTER_S));

        await proxy.restore();
        await waitFor(async () => (await healthz()).status === 200, 15_000, `/healthz to see ${dependency} again`);
      });
    }
  }

  it('answers an authenticated GET 503 service_unavailable within seconds while Postgres is frozen, and the next one 200 once it is back', async () => {
    assert.equal((await get('/v1/balance', org.liveKey)).status, 200);
    postgresProxy.freeze();

    const res = await timed(() => get('/v1/balance', org.liveKey));
    assertServiceUnavailable(res, /database is unreachable/);
    assert.ok(res.ms < API_QUERY_TIMEOUT_MS + SLACK_MS, `answered in ${res.ms} ms`);

    await postgresProxy.restore();
    const after = await get('/v1/balance', org.liveKey);
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.equal(after.body.organization_id, org.id);
  });

  it('answers 503, not 401, when a key cannot be looked up because Postgres refuses connections, and 200 once it is back', async () => {
    await postgresProxy.refuse();
    // The test key has never been seen by this API: authenticating it needs the database.
    const res = await timed(() => get('/v1/generations', org.testKey));
    assertServiceUnavailable(res, /database is unreachable/);
    assert.ok(res.ms < SLACK_MS, `answered in ${res.ms} ms`);

    await postgresProxy.restore();
    const after = await get('/v1/generations', org.testKey);
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.equal(after.body.object, 'list');
  });

  it('serves again, without a restart, after its pooled connections went silent for good', async function () {
    this.timeout(60_000);
    assert.equal((await get('/v1/balance', org.liveKey)).status, 200);
    // The database is reachable again on new connections, but the pooled ones will never answer:
    // each is dropped after one statement times out on it, never reused.
    postgresProxy.blackhole();
    const statuses = new Set<number>();
    await waitFor(
      async () => {
        const res = await get('/v1/balance', org.liveKey);
        statuses.add(res.status);
        return res.status === 200;
      },
      45_000,
      'a 200 over fresh connections',
    );
    assert.deepEqual(
      [...statuses].filter((s) => s !== 200 && s !== 503),
      [],
      'every failure was a 503',
    );
  });

  it('answers a cancel 503 within about 5 s while Temporal refuses connections, and cancels once it is back', async () => {
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a long take #slow:600000', duration_s: 6 } });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    await temporalProxy.refuse();

    const res = await timed(() => call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey, baseUrl: api.url }));
    assertServiceUnavailable(res, /workflow engine \(Temporal\) is unreachable/);
    assert.ok(res.ms < TEMPORAL_RPC_TIMEOUT_MS + SLACK_MS, `answered in ${res.ms} ms`);
    const untouched = await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey });
    assert.ok(['queued', 'running'].includes(untouched.body.status), untouched.body.status);

    await temporalProxy.restore();
    const canceled = await waitFor(
      async () => {
        const retry = await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey, baseUrl: api.url });
        return retry.status === 503 ? undefined : retry;
      },
      15_000,
      'a retried cancel to get through',
    );
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.equal(canceled.body.status, 'canceled');
    assert.equal(canceled.body.refunded_credits, created.body.reserved_credits);
    await assertLedgerBalanced(org.id);
  });

  it("passes a provider's callback on while Temporal is frozen (it needs only Postgres), answers it 503 within seconds while Postgres is frozen, so the provider sends it again, and 204 once it is back", async () => {
    const callback = new URL(providerCallbackUrl(api.url, stack().apiDeps.providerCallbackSecret, newId('gen')));
    const send = () => call('POST', `${callback.pathname}${callback.search}`, { baseUrl: api.url });
    temporalProxy.freeze();
    const withoutTemporal = await timed(send);
    assert.equal(withoutTemporal.status, 204, JSON.stringify(withoutTemporal.body));
    await temporalProxy.restore();

    postgresProxy.freeze();
    const res = await timed(send);
    assertServiceUnavailable(res, /database is unreachable/);
    assert.ok(res.ms < API_QUERY_TIMEOUT_MS + SLACK_MS, `answered in ${res.ms} ms`);

    await postgresProxy.restore();
    assert.equal((await send()).status, 204);
  });
});
