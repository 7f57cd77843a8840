import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '../db/knex';
import { migrateToLatest } from '../db/migrate';
import { admitGeneration, captureCredits, adjustCredits } from '../db/ledger';
import { startEmbeddedPostgres } from '../embedded/postgres';
import { freePort } from '../lib/free-port';
import { newId } from '../lib/ids';
import { formatRatio, interleaved, ratioOf, runBenchmark, type ErrorLog } from './lib/harness';
import { differenceOf, formatDifference } from './lib/round-differences';

// npm run bench:ledger-triggers — what the usage and budget triggers (db/migrations/0012-usage.ts)
// add to the money path: admit + capture of one generation, one after another on one connection,
// with the triggers disabled and enabled, in five interleaved rounds of 1,000 pairs each (the side
// going first alternating) on embedded Postgres. It reports the mean time per pair of each side, the
// median of the per-round differences and of the per-round ratios, with their ranges; no target is
// stated. A generation not admitted or not captured voids the run.
//
// BENCH_SCALE (default 1) multiplies the pairs per round.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ROUNDS = 5;
const PAIRS = Math.max(50, Math.round(1000 * scale));

async function main(errors: ErrorLog) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trig-'));
  await chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), database: 't', persistent: false });
  const knex = createKnex(pg.databaseUrl);
  await migrateToLatest(knex);
  const org = newId('org');
  await knex('organizations').insert({ id: org, name: 'x', plan: 'pro', enterprise: false });
  await knex('wallets').insert({ organization_id: org, available_credits: 0, reserved_credits: 0 });
  const user = newId('usr');
  await knex('users').insert({ id: user, organization_id: org, email: 'a@b.c', name: 'a', role: 'owner' });
  const key = newId('key');
  await knex('api_keys').insert({ id: key, organization_id: org, user_id: user, name: 'k', environment: 'live', prefix: 'p', secret_hash: 'h' });
  await adjustCredits(knex, { organizationId: org, amount: 100_000_000, reason: 'seed' });
  const run = async (n: number) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const id = newId('gen');
      const admitted = await admitGeneration(knex, {
        id,
        organization_id: org,
        api_key_id: key,
        environment: 'live',
        modality: 'image',
        model: 'flux-schnell',
        prompt: 'p',
        params: {},
        reserved_credits: 10,
      });
      if (!admitted) errors.unexpected('admitGeneration', `${id} was not admitted`);
      else if (!(await captureCredits(knex, { organizationId: org, generationId: id, reserved: 10, charged: 7 }))) errors.unexpected('captureCredits', `${id} moved no money`);
    }
    return (performance.now() - t0) / n;
  };
  const toggle = (on: boolean) =>
    knex.raw(`ALTER TABLE generations ${on ? 'ENABLE' : 'DISABLE'} TRIGGER generations_usage; ALTER TABLE ledger_entries ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ledger_usage`);
  await run(Math.max(50, Math.round(300 * scale)));
  const sides = ['without triggers', 'with triggers'] as const;
  const perPair = await interleaved(ROUNDS, sides, async (side) => {
    await toggle(side === 'with triggers');
    return run(PAIRS);
  });
  await toggle(true);
  const added = differenceOf(perPair['with triggers'], perPair['without triggers']);
  const ratio = ratioOf(perPair['with triggers'], perPair['without triggers']);
  for (let r = 0; r < ROUNDS; r++) {
    const [off, on] = [perPair['without triggers'][r]!, perPair['with triggers'][r]!];
    console.log(`round ${r + 1}: admit+capture without triggers ${off.toFixed(2)} ms, with ${on.toFixed(2)} ms (${on >= off ? '+' : '−'}${Math.abs(on - off).toFixed(2)} ms)`);
  }
  await knex.destroy();
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
  return {
    targets: [{ name: 'the triggers add per admit + capture', target: 'none stated', result: `${formatDifference(added)}; ${formatRatio(ratio)}` }],
    figures: { msPerPair: perPair, addedMs: added, ratio },
    notes: [`embedded Postgres; ${ROUNDS} interleaved rounds of ${PAIRS} admit + capture pairs per side on one connection (BENCH_SCALE=${scale})`],
  };
}

runBenchmark('ledger-triggers', main);
