import type { Knex } from 'knex';
import { createKnex } from '../db/knex';
import { startAdmissionWriter } from './lib/admission-writer';
import { startBenchStack } from './lib/embedded-stack';
import { interleaved, runBenchmark, type ErrorLog, type TargetResult } from './lib/harness';
import { postJson, requestJson } from './lib/http-client';
import { ms, runLoad, summarize, type LoadResult } from './lib/stats';
import { textTable } from './lib/text-table';

// npm run bench:usage — GET /v1/usage over a large history while admissions write. Seeds one
// organization with 1,000,000 live generations over the last 30 days from 500 keys (made through
// the API, so the month's rollup by key has 500 rows) and ten models of all eight modalities, with
// their ledger rows: reserve + capture (most), reserve + partial capture + release (chat), reserve +
// refund (1 in 20 fails), none (1 in 20 is a cache hit). The seed is bulk SQL (INSERT ... SELECT
// generate_series, in batches of one transaction each) that goes through the production triggers,
// so `usage_daily` is built the way production builds it. Then, while a writer admits and settles
// BENCH_WRITE_RATE generations a second (default 50, about the most the whole stack admits on the
// 2-core machine) through the worker's credit activities (bench/lib/admission-writer.ts), each
// group_by over the month through the HTTP API at concurrency 8, 500 requests each, against
// GET /v1/balance (an authenticated read of one row): five interleaved rounds of 100 per request,
// the order rotating. Afterwards the writer stops and, for scale, the month by model is taken
// straight from generations + ledger_entries, which must equal the API's answer (the writer's
// generations included), and the wallet must equal the sum of its ledger.
// Target: every group_by under 200 ms at p99. Any answer but 200 voids the run.
//
// BENCH_SCALE (default 1) multiplies the number of generations seeded; the samples stay 500.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const GENERATIONS = Math.max(10_000, Math.round(1_000_000 * scale));
const BATCH = 50_000;
const KEYS = 500;
const DAYS = 30;
const ROUNDS = 5;
const PER_ROUND = 100;
const CONCURRENCY = 8;
const WRITE_RATE = Number(process.env.BENCH_WRITE_RATE ?? 50);
const TARGET_P99_MS = 200;
const REQUEST_TIMEOUT_MS = 10_000;

/** Slug, modality and an illustrative price per generation (the benchmark does not price). */
const MODELS: [string, string, number][] = [
  ['flux-schnell', 'image', 10],
  ['imagen-4', 'image', 40],
  ['veo-3-fast', 'video', 800],
  ['eleven-v3', 'voice', 30],
  ['minimax-music-v1.5', 'music', 60],
  ['veed-avatars', 'avatar', 300],
  ['gpt-5-mini', 'chat', 20],
  ['gemini-2.5-flash', 'chat', 15],
  ['tripo-v2.5-text', '3d', 250],
  ['aura-sr', 'upscale', 12],
];

/**
 * Generations [first, last] and their ledger rows in one transaction, the wallet moved by what
 * they charged, as production leaves it. Generation i belongs to key i mod 50 and model
 * (i / 50) mod 10, and they are spread evenly from the start of the 30th UTC day back until now,
 * so every key uses every model every day.
 */
async function seedBatch(knex: Knex, args: { organizationId: string; keyIds: string[]; first: number; last: number }) {
  await knex.transaction(async (trx) => {
    const bindings = {
      org: args.organizationId,
      keys: args.keyIds,
      slugs: MODELS.map((m) => m[0]),
      modalities: MODELS.map((m) => m[1]),
      prices: MODELS.map((m) => m[2]),
      first: args.first,
      last: args.last,
      n: GENERATIONS,
      models: MODELS.length,
    };
    await trx.raw(
      `INSERT INTO generations (id, organization_id, api_key_id, environment, modality, model, status, prompt,
                                reserved_credits, charged_credits, refunded_credits, cache_hit, created_at, started_at, finished_at)
       SELECT id, :org, api_key_id, 'live', modality, model, CASE WHEN outcome = 'failed' THEN 'failed' ELSE 'succeeded' END, 'bench',
              CASE WHEN outcome = 'cached' THEN 0 ELSE price END,
              CASE outcome WHEN 'full' THEN price WHEN 'partial' THEN price * 2 / 5 ELSE 0 END,
              CASE outcome WHEN 'failed' THEN price WHEN 'partial' THEN price - price * 2 / 5 ELSE 0 END,
              outcome = 'cached', created_at, created_at, created_at + interval '2 seconds'
         FROM (SELECT 'gen_bench' || lpad(i::text, 8, '0') AS id,
                      (:keys::text[])[1 + i % ${KEYS}] AS api_key_id,
                      (:slugs::text[])[1 + (i / ${KEYS}) % :models::int] AS model,
                      (:modalities::text[])[1 + (i / ${KEYS}) % :models::int] AS modality,
                      (:prices::int[])[1 + (i / ${KEYS}) % :models::int] AS price,
                      CASE WHEN (:modalities::text[])[1 + (i / ${KEYS}) % :models::int] = 'chat' THEN 'partial'
                           WHEN (i / 400) % 20 = 0 THEN 'failed'
                           WHEN (i / 400) % 20 = 1 THEN 'cached'
                           ELSE 'full' END AS outcome,
                      now() - (i::float8 / :n::int) * (now() - month_start) AS created_at
                 FROM generate_series(:first::int, :last::int) AS i,
                      -- The first instant of the 30th UTC day back, today being the 1st.
                      LATERAL (SELECT (date_trunc('day', now() AT TIME ZONE 'UTC') - interval '${DAYS - 1} days') AT TIME ZONE 'UTC' AS month_start) b) s`,
      bindings,
    );
    // One statement for every ledger row of the batch, so the ledger trigger runs once for it.
    await trx.raw(
      `INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta, created_at)
       SELECT g.organization_id, g.id, e.kind, e.available, e.reserved, g.finished_at
         FROM generations g
        CROSS JOIN LATERAL (VALUES
          ('reserve', -g.reserved_credits, g.reserved_credits),
          ('capture', 0, -g.charged_credits),
          ('release', g.refunded_credits, -g.refunded_credits),
          ('refund', g.refunded_credits, -g.refunded_credits)) AS e(kind, available, reserved)
        WHERE g.id BETWEEN 'gen_bench' || lpad(:first::text, 8, '0') AND 'gen_bench' || lpad(:last::text, 8, '0')
          AND g.reserved_credits > 0
          AND CASE e.kind
                WHEN 'reserve' THEN true
                WHEN 'capture' THEN g.status = 'succeeded'
                WHEN 'release' THEN g.status = 'succeeded' AND g.refunded_credits > 0
                ELSE g.status = 'failed' END`,
      bindings,
    );
    await trx.raw(
      `UPDATE wallets SET available_credits = available_credits - c.charged, updated_at = now()
         FROM (SELECT coalesce(sum(charged_credits), 0) AS charged FROM generations
                WHERE id BETWEEN 'gen_bench' || lpad(:first::text, 8, '0') AND 'gen_bench' || lpad(:last::text, 8, '0')) c
        WHERE organization_id = :org`,
      bindings,
    );
  });
}

/** The wallet against the sum of its ledger rows: the seed must leave the books balanced. */
async function checkLedger(knex: Knex, organizationId: string): Promise<void> {
  const { rows } = await knex.raw(
    `SELECT w.available_credits = l.available AND w.reserved_credits = l.reserved AS balanced
       FROM wallets w, (SELECT sum(available_delta) AS available, sum(reserved_delta) AS reserved
                          FROM ledger_entries WHERE organization_id = ?) l
      WHERE w.organization_id = ?`,
    [organizationId, organizationId],
  );
  if (!rows[0]?.balanced) throw new Error('the seeded wallet does not equal the sum of its ledger');
}

/** What the rollup saves: the month by model, straight from generations and their ledger rows. */
async function aggregateFromLedger(knex: Knex, organizationId: string, from: string, to: string) {
  const { rows } = await knex.raw(
    `SELECT g.model AS key, count(*)::bigint AS generations,
            coalesce(sum(m.charged), 0)::bigint AS credits_charged, coalesce(sum(m.refunded), 0)::bigint AS credits_refunded
       FROM generations g
       LEFT JOIN (SELECT generation_id,
                         sum(CASE WHEN kind = 'capture' THEN -reserved_delta ELSE 0 END) AS charged,
                         sum(CASE WHEN kind = 'refund' THEN available_delta ELSE 0 END) AS refunded
                    FROM ledger_entries WHERE organization_id = :org AND generation_id IS NOT NULL GROUP BY generation_id) m
              ON m.generation_id = g.id
      WHERE g.organization_id = :org AND g.environment = 'live'
        AND g.created_at >= (:from::date AT TIME ZONE 'UTC') AND g.created_at < ((:to::date + 1) AT TIME ZONE 'UTC')
      GROUP BY 1 ORDER BY g.model COLLATE "C"`,
    { org: organizationId, from, to },
  );
  return rows as { key: string; generations: number; credits_charged: number; credits_refunded: number }[];
}

async function main(errors: ErrorLog) {
  const stack = await startBenchStack();
  const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const admin = { Authorization: 'Bearer adm_bench' };
  const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'usage bench', plan: 'team', credits: 1_000_000_000_000 })).body);
  await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
  const owner = { Authorization: `Bearer ${org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret as string}` };
  const keyIds: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const created = await postJson(`${stack.apiUrl}/v1/api-keys`, owner, { name: `bench key ${i}` });
    if (created.status !== 201) throw new Error(`key creation: ${created.status} ${created.body}`);
    keyIds.push(JSON.parse(created.body).id);
  }
  say(`created ${KEYS} keys`);

  const knex = createKnex(stack.config.databaseUrl!);
  const seedStart = performance.now();
  for (let first = 0; first < GENERATIONS; first += BATCH) {
    await seedBatch(knex, { organizationId: org.id, keyIds, first, last: Math.min(first + BATCH, GENERATIONS) - 1 });
    say(`seeded ${Math.min(first + BATCH, GENERATIONS).toLocaleString('en-US')} generations`);
  }
  const seedMs = performance.now() - seedStart;
  await checkLedger(knex, org.id);
  // What autovacuum would have done by the time such a history exists.
  await knex.raw('VACUUM ANALYZE generations, ledger_entries, usage_daily');
  const counts = (
    await knex.raw(
      `SELECT (SELECT count(*) FROM generations WHERE organization_id = :org)::int AS generations,
            (SELECT count(*) FROM ledger_entries WHERE organization_id = :org AND generation_id IS NOT NULL)::int AS ledger,
            (SELECT count(*) FROM usage_daily WHERE organization_id = :org)::int AS rollup`,
      { org: org.id },
    )
  ).rows[0] as { generations: number; ledger: number; rollup: number };

  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const month = `from=${from}&to=${today}`;
  /** One GET through the API; any answer but 200 (or none within the deadline) voids the run. */
  const get = (label: string, path: string) => async (): Promise<boolean> => {
    try {
      const res = await requestJson('GET', `${stack.apiUrl}${path}`, owner, undefined, { timeoutMs: REQUEST_TIMEOUT_MS });
      if (res.status === 200) return true;
      errors.unexpected(label, `HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    } catch (err) {
      errors.unexpected(label, err);
    }
    return false;
  };
  const GROUPINGS = ['day', 'model', 'api_key', 'modality'] as const;
  const requests: Record<string, () => Promise<boolean>> = { 'GET /v1/balance (baseline)': get('GET /v1/balance', '/v1/balance') };
  for (const g of GROUPINGS) requests[`GET /v1/usage group_by=${g}`] = get(`group_by=${g}`, `/v1/usage?group_by=${g}&${month}`);
  requests['GET /v1/usage group_by=api_key csv'] = get('group_by=api_key csv', `/v1/usage?group_by=api_key&${month}&format=csv`);
  const labels = Object.keys(requests);

  // The month by key must list every key: one rollup of 500 keys, not a sample of them.
  const byKey = await requestJson('GET', `${stack.apiUrl}/v1/usage?group_by=api_key&${month}`, owner);
  const keysInRollup = byKey.status === 200 ? (JSON.parse(byKey.body) as { data: unknown[] }).data.length : 0;
  if (keysInRollup < KEYS) throw new Error(`the month by key has ${keysInRollup} rows (HTTP ${byKey.status}), not the ${KEYS} keys seeded`);

  const writer = startAdmissionWriter({ knex, organizationId: org.id, apiKeyIds: keyIds, plan: 'team', perSecond: WRITE_RATE, errors });
  for (const fn of Object.values(requests)) await runLoad(5, 1, fn);
  const rounds = await interleaved(ROUNDS, labels, async (label) => runLoad(PER_ROUND, CONCURRENCY, requests[label]!));
  const written = await writer.stop();
  say(`writer: ${written.settled} generations admitted and settled at ${written.perSecond.toFixed(1)}/s`);

  const pooled = (runs: LoadResult[]): LoadResult => ({
    latenciesMs: runs.flatMap((r) => r.latenciesMs),
    wallMs: runs.reduce((sum, r) => sum + r.wallMs, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  });
  const results = labels.map((label) => ({ label, ...summarize(pooled(rounds[label]!)) }));

  // The rollup must agree with the ledger it summarizes, the writer's generations included.
  const viaApi = await requestJson('GET', `${stack.apiUrl}/v1/usage?group_by=model&${month}`, owner);
  if (viaApi.status !== 200) throw new Error(`usage by model: HTTP ${viaApi.status} ${viaApi.body}`);
  const t0 = performance.now();
  const direct = await aggregateFromLedger(knex, org.id, from, today);
  const directMs = performance.now() - t0;
  const apiRows = (JSON.parse(viaApi.body).data as { key: string; generations: number; credits_charged: number; credits_refunded: number }[]).map(
    ({ key, generations, credits_charged, credits_refunded }) => ({ key, generations, credits_charged, credits_refunded }),
  );
  if (JSON.stringify(apiRows) !== JSON.stringify(direct)) {
    throw new Error(`usage by model differs from the ledger:\n${JSON.stringify(apiRows)}\n${JSON.stringify(direct)}`);
  }
  await checkLedger(knex, org.id);

  console.log(
    [
      '',
      `bench:usage (embedded stack on the ${stack.temporalLabel}; one organization, ${KEYS} keys, ${MODELS.length} models, ${DAYS} days)`,
      `seeded ${counts.generations.toLocaleString('en-US')} generations and ${counts.ledger.toLocaleString('en-US')} ledger rows in ${(seedMs / 1000).toFixed(1)} s (through the production triggers); usage_daily holds ${counts.rollup.toLocaleString('en-US')} rows`,
      `while sampling, a writer admitted and settled ${written.settled} generations at ${written.perSecond.toFixed(1)}/s (target ${WRITE_RATE}/s, ${written.skippedTicks} ticks skipped; admit + settle p50 ${ms(written.p50Ms)}, p99 ${ms(written.p99Ms)})`,
      `${ROUNDS} interleaved rounds of ${PER_ROUND} requests per row at concurrency ${CONCURRENCY}:`,
      '',
      textTable(
        ['request', 'n', 'p50', 'p95', 'p99', 'errors'],
        results.map((r) => [r.label, r.n, ms(r.p50), ms(r.p95), ms(r.p99), r.errors]),
      ),
      '',
      `the same month by model straight from generations + ledger_entries: ${ms(directMs)} (one query; equal to the rollup's answer)`,
      '',
    ].join('\n'),
  );
  await knex.destroy();
  await stack.stop();

  const targets: TargetResult[] = results
    .filter((r) => r.label.startsWith('GET /v1/usage'))
    .map((r) => ({
      name: `${r.label.replace('GET /v1/usage ', '')} p99, c=${CONCURRENCY}`,
      target: `< ${TARGET_P99_MS} ms`,
      result: `${ms(r.p99)} (p50 ${ms(r.p50)}, n=${r.n})`,
      pass: r.n >= ROUNDS * PER_ROUND && r.p99 < TARGET_P99_MS,
    }));
  return {
    targets,
    figures: {
      requests: Object.fromEntries(results.map(({ label, ...r }) => [label, r])),
      seed: { ...counts, seconds: seedMs / 1000, keys: KEYS, keysInRollup },
      writer: written,
      directAggregationMs: directMs,
    },
    notes: [
      `embedded stack on the ${stack.temporalLabel}; ${counts.generations.toLocaleString('en-US')} generations seeded (BENCH_SCALE=${scale}), ${KEYS} keys, ${counts.rollup.toLocaleString('en-US')} rollup rows`,
      `${ROUNDS} interleaved rounds of ${PER_ROUND} requests each at c=${CONCURRENCY} while a writer admitted and settled ${written.perSecond.toFixed(1)} generations/s (target ${WRITE_RATE}/s)`,
      ...(written.perSecond < 0.9 * WRITE_RATE
        ? [
            `the writer fell short of its rate (${written.perSecond.toFixed(1)} of ${WRITE_RATE}/s, ${written.skippedTicks} ticks skipped): the machine could not keep up, so the reads met fewer writes than planned`,
          ]
        : []),
    ],
  };
}

runBenchmark('usage', main);
