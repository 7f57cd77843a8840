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
import { interleaved, runBenchmark, type ErrorLog } from './lib/harness';
import { getJson, postJson, requestJson } from './lib/http-client';
import { differenceOf, formatDifference } from './lib/round-differences';
import { ms, runLoad, summarize, type LoadResult } from './lib/stats';

// npm run bench:auth — an authenticated cheap route (GET /v1/models) against an unauthenticated
// one (GET /healthz) in the same run, and, to isolate the guards themselves, one trivial handler
// served with and without authenticate + rate limit + authorize (an allowlisted, scoped key, so
// every check runs), and with guards that have no cache and no lease (a cold key). At c=1 (1,000
// requests per row) and c=8 (4,000), each split over five interleaved rounds in which every row
// runs once, the order rotating. What the guards add is the median of the per-round differences
// (guarded − bare), with their range. Target: the guards add under 1 ms at p99 at c=1. A request
// answered otherwise than 200 voids the run.
//
// BENCH_SCALE (default 1) multiplies request counts.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n: number) => Math.max(20, Math.round(n * scale));
const ROUNDS = 5;
const TARGET_ADDED_P99_MS = 1;

async function listen(app: Koa<AppState>): Promise<{ url: string; server: Server }> {
  const port = await freePort();
  const server = app.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${port}`, server };
}

async function main(errors: ErrorLog) {
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

  /** A request that must be answered 200; anything else is recorded with its answer (and voids the run). */
  const answered200 = (where: string, send: () => Promise<{ status: number; body: string }>) => async () => {
    const res = await send().catch((err: unknown) => ({ status: 0, body: err instanceof Error ? err.message : String(err) }));
    if (res.status !== 200) errors.unexpected(where, `HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    return res.status === 200;
  };
  const runs: [string, () => Promise<boolean>][] = [
    ['GET /healthz (no auth)', answered200('GET /healthz', () => getJson(`${stack.apiUrl}/healthz`, {}))],
    ['GET /v1/models (auth)', answered200('GET /v1/models', () => getJson(`${stack.apiUrl}/v1/models`, key))],
    ['trivial handler, bare', answered200('trivial handler, bare', () => getJson(bareApp.url, {}))],
    ['trivial handler, guarded', answered200('trivial handler, guarded', () => getJson(warmApp.url, key))],
    ['  …no cache, no lease', answered200('trivial handler, cold key', () => getJson(coldApp.url, key))],
  ];
  const labels = runs.map(([label]) => label);
  const call = Object.fromEntries(runs);
  for (const [, fn] of runs) await runLoad(count(200), 4, fn);

  const lines: string[] = [];
  const results: Record<string, ReturnType<typeof summarize>> = {};
  const perRound: Record<string, ReturnType<typeof summarize>[]> = {};
  for (const concurrency of [1, 8]) {
    const total = count(concurrency === 1 ? 1000 : 4000);
    const perRoundCount = Math.max(1, Math.round(total / ROUNDS));
    const warmTrips = { principal: 0, lease: 0 };
    const rounds = await interleaved(ROUNDS, labels, async (label) => {
      const before = { ...trips };
      // Each failed call is recorded with its answer by answered200.
      const r = await runLoad(perRoundCount, concurrency, call[label]!);
      if (label === 'trivial handler, guarded') {
        warmTrips.principal += trips.principal - before.principal;
        warmTrips.lease += trips.lease - before.lease;
      }
      return r;
    });
    for (const label of labels) {
      const all: LoadResult = {
        latenciesMs: rounds[label]!.flatMap((r) => r.latenciesMs),
        wallMs: rounds[label]!.reduce((sum, r) => sum + r.wallMs, 0),
        errors: rounds[label]!.reduce((sum, r) => sum + r.errors, 0),
      };
      const r = summarize(all);
      results[`${label}@${concurrency}`] = r;
      perRound[`${label}@${concurrency}`] = rounds[label]!.map(summarize);
      lines.push(`${label.padEnd(26)} c=${concurrency}  ${r.perSecond.toFixed(0).padStart(5)} req/s  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  errors ${r.errors}`);
      if (label === 'trivial handler, guarded') lines.push(`  (warm guards: ${warmTrips.principal} principal lookups, ${warmTrips.lease} token leases for ${r.n} requests)`);
    }
  }
  const at = (label: string, c: number) => results[`${label}@${c}`]!;
  /** What `label` adds over the bare handler at `c`: per-round differences of p50 and p99. */
  const added = (label: string, c: number) => {
    const [side, bare] = [perRound[`${label}@${c}`]!, perRound[`trivial handler, bare@${c}`]!];
    return {
      p50: differenceOf(
        side.map((r) => r.p50),
        bare.map((r) => r.p50),
      ),
      p99: differenceOf(
        side.map((r) => r.p99),
        bare.map((r) => r.p99),
      ),
    };
  };
  const addedBy = Object.fromEntries(
    [1, 8].flatMap((c) => [[`guards@${c}`, added('trivial handler, guarded', c)] as const, [`cold@${c}`, added('  …no cache, no lease', c)] as const]),
  );
  const summary = [1, 8].map((c) => {
    const models = at('GET /v1/models (auth)', c),
      health = at('GET /healthz (no auth)', c);
    const [guards, cold] = [addedBy[`guards@${c}`]!, addedBy[`cold@${c}`]!];
    return [
      `c=${c}: /v1/models vs /healthz: ${(models.perSecond / health.perSecond).toFixed(2)}x req/s, p99 ${ms(models.p99)} vs ${ms(health.p99)}`,
      `     guards add p50 ${formatDifference(guards.p50)}, p99 ${formatDifference(guards.p99)} (steady traffic)`,
      `     a cold key (two round trips) adds p50 ${formatDifference(cold.p50)}, p99 ${formatDifference(cold.p99)}`,
    ].join('\n');
  });
  console.log(['', `bench:auth (embedded stack on the ${stack.temporalLabel}; allowlisted, scoped key; rate limiter active)`, ...lines, '', ...summary, ''].join('\n'));

  for (const app of [bareApp, warmApp, coldApp]) app.server.close();
  await guards.close();
  await knex.destroy();
  await stack.stop();

  const guards1 = addedBy['guards@1']!;
  return {
    targets: [
      { name: 'the guards add at p99, c=1', target: `< ${TARGET_ADDED_P99_MS} ms`, result: formatDifference(guards1.p99), pass: guards1.p99.median < TARGET_ADDED_P99_MS },
      { name: 'the guards add at p99, c=8', target: 'none stated', result: formatDifference(addedBy['guards@8']!.p99) },
      { name: 'a cold key adds at p50, c=1', target: 'none stated', result: formatDifference(addedBy['cold@1']!.p50) },
    ],
    figures: { requests: results, added: addedBy },
    notes: [`embedded stack on the ${stack.temporalLabel}; ${ROUNDS} interleaved rounds; ${count(1000)} requests per row at c=1, ${count(4000)} at c=8 (BENCH_SCALE=${scale})`],
  };
}

runBenchmark('auth', main);
