import type { Server } from 'node:http';
import Koa from 'koa';
import { createRepos } from '../db/repos';
import { createKnex } from '../db/knex';
import { authenticate } from '../api/middleware/authenticate';
import { authorize } from '../api/middleware/authorize';
import { rateLimit } from '../api/middleware/rate-limit';
import type { ApiDeps, AppState } from '../api/context';
import { startGuardServices } from '../api/guards/guard-services';
import { createPrincipalCache } from '../api/guards/principal-cache';
import { takeRateLimitToken } from '../db/rate-limits';
import { silentLogger } from '../lib/logger';
import { freePort } from '../lib/free-port';
import { startBenchStack } from './lib/embedded-stack';
import { runBench } from './lib/run-bench';
import { getJson, postJson, requestJson } from './lib/http-client';
import { ms, runLoad, summarize } from './lib/stats';

// npm run bench:auth — an authenticated cheap route (GET /v1/models) against an unauthenticated
// one (GET /healthz) in the same run, and, to isolate the guards themselves, one trivial handler
// served with and without authenticate + rate limit + authorize (an allowlisted, scoped key, so
// every check runs). Target: the guards together cost under 1 ms at p99.
//
// BENCH_SCALE (default 1) multiplies request counts.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n: number) => Math.max(20, Math.round(n * scale));

async function listen(app: Koa<AppState>): Promise<{ url: string; server: Server }> {
  const port = await freePort();
  const server = app.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${port}`, server };
}

async function main() {
  const stack = await startBenchStack();
  const admin = { Authorization: 'Bearer adm_bench' };
  const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'auth bench', plan: 'pro', enterprise: true })).body);
  await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
  const owner = org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret as string;
  const scoped = JSON.parse(
    (await postJson(`${stack.apiUrl}/v1/api-keys`, { Authorization: `Bearer ${owner}` }, { name: 'bench', scopes: ['generations:read', 'images:write'] })).body,
  );
  await requestJson('PATCH', `${stack.apiUrl}/v1/api-keys/${scoped.id}`, { Authorization: `Bearer ${owner}` }, { ipAllowlist: ['127.0.0.0/8', '::1/128'] });
  const key = { Authorization: `Bearer ${scoped.secret}` };

  // The guards alone, on the same database, with the same key.
  const knex = createKnex(stack.config.databaseUrl!);
  const repos = createRepos(knex);
  // Round trips the warm guards make, to show how much of the traffic memory answers.
  const trips = { principal: 0, lease: 0 };
  const countedRepos = {
    ...repos,
    apiKeys: { ...repos.apiKeys, findPrincipalBySecretHash: (hash: string) => (trips.principal++, repos.apiKeys.findPrincipalBySecretHash(hash)) },
  };
  knex.on('query', (q: { sql: string }) => void (q.sql.includes('take_rate_limit_tokens') && trips.lease++));
  const guards = await startGuardServices(knex, countedRepos, stack.config.databaseUrl!, silentLogger);
  type GuardDeps = Pick<ApiDeps, 'principals' | 'rateLimiter' | 'trustedProxies' | 'rateLimitPerMinute'>;
  const warm: GuardDeps = { ...guards, trustedProxies: [], rateLimitPerMinute: 1_000_000 };
  // What a key's first request in a process pays: a principal lookup and a bucket round trip.
  const cold: GuardDeps = {
    principals: createPrincipalCache((hash) => repos.apiKeys.findPrincipalBySecretHash(hash), undefined),
    rateLimiter: { take: (id, limit) => takeRateLimitToken(knex, id, limit), close: async () => undefined },
    trustedProxies: [],
    rateLimitPerMinute: 1_000_000,
  };
  const guardedApp = (deps: GuardDeps) =>
    new Koa<AppState>()
      .use(authenticate(deps))
      .use(rateLimit(deps))
      .use(authorize({ kind: 'api_key', scope: 'generations:read', minRole: 'viewer', creditConsuming: false }))
      .use(async (ctx) => void (ctx.body = { ok: true }));
  const bare = new Koa<AppState>().use(async (ctx) => void (ctx.body = { ok: true }));
  const [bareApp, warmApp, coldApp] = [await listen(bare), await listen(guardedApp(warm)), await listen(guardedApp(cold))];

  const runs: [string, () => Promise<boolean>][] = [
    ['GET /healthz (no auth)', async () => (await getJson(`${stack.apiUrl}/healthz`, {})).status === 200],
    ['GET /v1/models (auth)', async () => (await getJson(`${stack.apiUrl}/v1/models`, key)).status === 200],
    ['trivial handler, bare', async () => (await getJson(bareApp.url, {})).status === 200],
    ['trivial handler, guarded', async () => (await getJson(warmApp.url, key)).status === 200],
    ['  …no cache, no lease', async () => (await getJson(coldApp.url, key)).status === 200],
  ];
  for (const [, fn] of runs) await runLoad(count(200), 4, fn);

  const lines: string[] = [];
  const results: Record<string, ReturnType<typeof summarize>> = {};
  for (const concurrency of [1, 8]) {
    for (const [label, fn] of runs) {
      const before = { ...trips };
      const r = summarize(await runLoad(count(concurrency === 1 ? 1000 : 4000), concurrency, fn));
      results[`${label}@${concurrency}`] = r;
      lines.push(`${label.padEnd(26)} c=${concurrency}  ${r.perSecond.toFixed(0).padStart(5)} req/s  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  errors ${r.errors}`);
      if (label === 'trivial handler, guarded') {
        lines.push(`  (warm guards: ${trips.principal - before.principal} principal lookups, ${trips.lease - before.lease} token leases for ${r.n} requests)`);
      }
    }
  }
  const at = (label: string, c: number) => results[`${label}@${c}`]!;
  const summary = [1, 8].map((c) => {
    const models = at('GET /v1/models (auth)', c),
      health = at('GET /healthz (no auth)', c);
    const guardedR = at('trivial handler, guarded', c),
      bareR = at('trivial handler, bare', c),
      coldR = at('  …no cache, no lease', c);
    return [
      `c=${c}: /v1/models vs /healthz: ${(models.perSecond / health.perSecond).toFixed(2)}x req/s, p99 ${ms(models.p99)} vs ${ms(health.p99)}`,
      `     guards add p50 ${ms(guardedR.p50 - bareR.p50)}, p99 ${ms(guardedR.p99 - bareR.p99)} (steady traffic); p50 ${ms(coldR.p50 - bareR.p50)}, p99 ${ms(coldR.p99 - bareR.p99)} (a cold key: two round trips)`,
    ].join('\n');
  });
  console.log(
    [
      '',
      `bench:auth (embedded stack on the ${stack.temporalLabel}; allowlisted, scoped key; rate limiter active)`,
      ...lines,
      '',
      ...summary,
      'target: guards < 1 ms at p99',
      '',
    ].join('\n'),
  );

  for (const app of [bareApp, warmApp, coldApp]) app.server.close();
  await guards.close();
  await knex.destroy();
  await stack.stop();
}

runBench(main);
