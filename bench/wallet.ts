import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createAdmissionCoalescer, createCoalescer, type CoalescerStats } from '../db/admission-coalescer';
import { createKnex } from '../db/knex';
import { adjustCredits, admitGeneration, captureCredits } from '../db/ledger';
import { migrateToLatest } from '../db/migrate';
import { createRepos } from '../db/repos';
import type { NewGeneration } from '../db/repos/generations';
import { startEmbeddedPostgres } from '../embedded/postgres';
import { generateApiKeySecret } from '../domain/api-key-secret';
import { freePort } from '../lib/free-port';
import { newId } from '../lib/ids';
import { reserveCredits, reserveCreditsBatch } from './lib/reservations';
import { runBenchmark, type ErrorLog } from './lib/harness';
import { ms, runLoad, summarize } from './lib/stats';

// npm run bench:wallet — the ledger alone, on embedded Postgres with its durable settings (fsync
// and synchronous_commit on, as `npm start` runs it): reservations per second on one hot wallet
// and spread over 100 wallets, at 1, 8 and 32 connections, each a real `reserveCredits` call
// (guarded debit + ledger row in one statement); the hot wallet again with concurrent callers
// coalesced into `reserveCreditsBatch` statements; the production admission path on the hot wallet
// (generation row + reservation: `admitGeneration` one statement each, and coalesced through
// db/admission-coalescer.ts into `admitGenerationsBatch`, as the reserveCredits activity does it);
// then reserve + capture pairs. After every run, every wallet must equal the sum of its ledger
// rows, or the run is void, as it is when a reservation is refused or fails. Target: a hot wallet
// sustains >= 1,000 reservations/s on the 2-core development machine, judged on the production
// path (admission coalesced, the best of c=1, 8 and 32); the other rows are reported beside it.
// No two sides are compared as a ratio, so there are no interleaved rounds.
//
// BENCH_SCALE (default 1) multiplies counts. BENCH_SYNC_COMMIT=off adds a diagnostic pass with
// synchronous_commit off, to show what the WAL flush costs; it is not a production setting.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n: number) => Math.max(50, Math.round(n * scale));
const CONCURRENCIES = [1, 8, 32];
const SPREAD = 100;
const AMOUNT = 7;

interface Row {
  label: string;
  concurrency: number;
  n: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  check: string;
  /** Coalesced rows: reservations per statement, on average. */
  meanBatch?: number;
}

/** Every wallet against the sums of its ledger rows, in one query. */
async function checkLedger(knex: Knex): Promise<string> {
  const { rows } = await knex.raw(
    `SELECT count(*)::int AS wallets,
            count(*) FILTER (WHERE w.available_credits <> coalesce(l.available, 0)
                                OR w.reserved_credits <> coalesce(l.reserved, 0))::int AS mismatched
       FROM wallets w
       LEFT JOIN (SELECT organization_id, sum(available_delta) AS available, sum(reserved_delta) AS reserved
                    FROM ledger_entries GROUP BY organization_id) l USING (organization_id)`,
  );
  const { wallets, mismatched } = rows[0] as { wallets: number; mismatched: number };
  if (mismatched > 0) throw new Error(`ledger check failed: ${mismatched} of ${wallets} wallets differ from their ledger`);
  return `${wallets} ok`;
}

async function createWallets(knex: Knex, n: number, credits: number): Promise<string[]> {
  const { organizations } = createRepos(knex);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const org = await organizations.create({ id: newId('org'), name: `wallet bench ${i}`, plan: 'pro', enterprise: false });
    await adjustCredits(knex, { organizationId: org.id, amount: credits, reason: 'bench' });
    ids.push(org.id);
  }
  return ids;
}

/** A live key of the organization, which its generation rows reference. */
async function createKey(knex: Knex, organizationId: string): Promise<string> {
  const { users, apiKeys } = createRepos(knex);
  const user = await users.create({ id: newId('usr'), organization_id: organizationId, name: 'bench owner', role: 'owner' });
  const { prefix, secretHash } = generateApiKeySecret('live');
  const key = await apiKeys.create({
    id: newId('key'),
    organization_id: organizationId,
    user_id: user.id,
    name: 'bench key',
    environment: 'live',
    prefix,
    secret_hash: secretHash,
  });
  return key.id;
}

async function runScenarios(knex: Knex, hot: { id: string; keyId: string }, spread: string[], errors: ErrorLog, suffix = ''): Promise<Row[]> {
  let next = 0;
  const pick = (wallets: string[]) => wallets[next++ % wallets.length]!;
  const reserve = (organizationId: string) => reserveCredits(knex, { organizationId, generationId: newId('gen'), amount: AMOUNT });
  const reserveAndCapture = async (organizationId: string) => {
    const generationId = newId('gen');
    if (!(await reserveCredits(knex, { organizationId, generationId, amount: AMOUNT }))) return false;
    return captureCredits(knex, { organizationId, generationId, reserved: AMOUNT, charged: AMOUNT - 2 });
  };
  // A generation as the API hands it to the workflow: one image, a prompt, a few params.
  const generation = (): NewGeneration => ({
    id: newId('gen'),
    organization_id: hot.id,
    api_key_id: hot.keyId,
    environment: 'live',
    modality: 'image',
    model: 'flux-schnell',
    prompt: 'a lighthouse at dusk, oil on canvas',
    params: { width: 1024, height: 1024, seed: 7 },
    reserved_credits: AMOUNT,
    cache_key: null,
  });
  const coalescer = createCoalescer<{ generationId: string; amount: number }, boolean>((organizationId, requests) => reserveCreditsBatch(knex, organizationId, requests));
  const admission = createAdmissionCoalescer(knex);
  const scenarios: [string, number, () => Promise<boolean>, CoalescerStats?][] = [
    [`reserve, 1 hot wallet${suffix}`, 3000, () => reserve(hot.id)],
    [`reserve, 1 hot wallet, coalesced${suffix}`, 3000, () => coalescer.submit(hot.id, { generationId: newId('gen'), amount: AMOUNT }), coalescer.stats],
    [`admit, 1 hot wallet${suffix}`, 3000, () => admitGeneration(knex, generation())],
    [`admit, 1 hot wallet, coalesced${suffix}`, 3000, () => admission.admit(generation()), admission.stats],
    [`reserve, ${SPREAD} wallets${suffix}`, 3000, () => reserve(pick(spread))],
    [`reserve+capture, 1 hot wallet${suffix}`, 1000, () => reserveAndCapture(hot.id)],
    [`reserve+capture, ${SPREAD} wallets${suffix}`, 1000, () => reserveAndCapture(pick(spread))],
  ];
  const rows: Row[] = [];
  for (const [label, base, fn, stats] of scenarios) {
    for (const concurrency of CONCURRENCIES) {
      const before = stats && { ...stats };
      // A refused or failed reservation (every wallet holds far more than the run reserves).
      const result = summarize(await runLoad(count(base), concurrency, fn));
      errors.failures(`${label} c=${concurrency}`, result.errors);
      const check = await checkLedger(knex);
      const meanBatch = stats && before ? (stats.requests - before.requests) / (stats.statements - before.statements) : undefined;
      rows.push({ label, concurrency, ...result, check, meanBatch });
      process.stderr.write(`[bench] ${label} c=${concurrency}: ${result.perSecond.toFixed(0)}/s, ledger ${check}\n`);
    }
  }
  return rows;
}

function table(rows: Row[]): string {
  const header = ['scenario', 'c', 'n', 'per second', 'p50', 'p99', 'errors', 'per statement', 'wallets == ledger'];
  const lines = rows.map((r) => [
    r.label,
    String(r.concurrency),
    String(r.n),
    r.perSecond.toFixed(0),
    ms(r.p50),
    ms(r.p99),
    String(r.errors),
    r.meanBatch === undefined ? '1' : r.meanBatch.toFixed(1),
    r.check,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

async function main(errors: ErrorLog) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'generation-service-bench-wallet-'));
  await chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), database: 'bench', persistent: false });
  const knex = createKnex(pg.databaseUrl, { poolMax: Math.max(...CONCURRENCIES) });
  try {
    await migrateToLatest(knex);
    const settings = await knex.raw(`SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method', 'commit_delay') ORDER BY name`);
    const [hotId, ...spread] = await createWallets(knex, 1 + SPREAD, 1_000_000_000);
    const hot = { id: hotId!, keyId: await createKey(knex, hotId!) };
    process.stderr.write('[bench] warming up\n');
    errors.failures('warm-up', (await runLoad(count(300), 8, () => reserveCredits(knex, { organizationId: hot.id, generationId: newId('gen'), amount: AMOUNT }))).errors);

    const rows = await runScenarios(knex, hot, spread, errors);
    if (process.env.BENCH_SYNC_COMMIT === 'off') {
      // Diagnostic only: these sessions commit without waiting for the WAL flush.
      const noSync = createKnex(`${pg.databaseUrl}?options=${encodeURIComponent('-c synchronous_commit=off')}`, {
        poolMax: Math.max(...CONCURRENCIES),
      });
      try {
        rows.push(...(await runScenarios(noSync, hot, spread, errors, ' [sync_commit off]')));
      } finally {
        await noSync.destroy();
      }
    }

    const best = (label: string) => rows.filter((r) => r.label === label).reduce((top, r) => (r.perSecond > top.perSecond ? r : top));
    const figure = (label: string) => {
      const top = best(label);
      return { perSecond: top.perSecond, result: `${top.perSecond.toFixed(0)}/s at c=${top.concurrency} (p99 ${ms(top.p99)})` };
    };
    const production = figure('admit, 1 hot wallet, coalesced');
    const settingsLine = settings.rows.map((s: { name: string; setting: string }) => `${s.name}=${s.setting}`).join(', ');
    console.log(
      [
        '',
        `bench:wallet (embedded Postgres; ${settingsLine}; ${os.cpus().length} cores)`,
        `each reservation: reserveCredits, ${AMOUNT} credits; admit: a generation row + its ${AMOUNT}-credit reservation; reserve+capture: reserveCredits then captureCredits of ${AMOUNT - 2} (a release row for the rest)`,
        '',
        table(rows),
        '',
      ].join('\n'),
    );
    return {
      targets: [
        {
          name: 'hot-wallet admissions/s, coalesced (the production path), best of c=1/8/32',
          target: '≥ 1,000/s',
          result: production.result,
          pass: production.perSecond >= 1000,
        },
        { name: 'admissions/s, 1 hot wallet, one admitGeneration statement each', target: 'none stated', result: figure('admit, 1 hot wallet').result },
        { name: 'reservations/s, 1 hot wallet, one reserveCredits statement each', target: 'none stated', result: figure('reserve, 1 hot wallet').result },
        { name: 'reservations/s, 1 hot wallet, coalesced into reserveCreditsBatch', target: 'none stated', result: figure('reserve, 1 hot wallet, coalesced').result },
      ],
      figures: { rows },
      notes: [`embedded Postgres (${settingsLine}); counts x ${scale} (BENCH_SCALE); every wallet equalled its ledger after every row`],
    };
  } finally {
    await knex.destroy();
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

runBenchmark('wallet', main);
