import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '../db/knex';
import { migrateToLatest } from '../db/migrate';
import { admitGeneration, captureCredits, adjustCredits } from '../db/ledger';
import { startEmbeddedPostgres } from '../embedded/postgres';
import { freePort } from '../lib/free-port';
import { newId } from '../lib/ids';

// npm run bench:ledger-triggers — what the usage and budget triggers (db/migrations/0012-usage.ts)
// add to the money path: admit + capture of one generation, one after another on one connection,
// with the triggers disabled and enabled, in three interleaved rounds of 1,000 on embedded Postgres.

async function main() {
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
      await admitGeneration(knex, {
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
      await captureCredits(knex, { organizationId: org, generationId: id, reserved: 10, charged: 7 });
    }
    return (performance.now() - t0) / n;
  };
  const toggle = (on: boolean) =>
    knex.raw(`ALTER TABLE generations ${on ? 'ENABLE' : 'DISABLE'} TRIGGER generations_usage; ALTER TABLE ledger_entries ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ledger_usage`);
  await run(300);
  for (let r = 0; r < 3; r++) {
    await toggle(false);
    const off = await run(1000);
    await toggle(true);
    const on = await run(1000);
    console.log(`round ${r + 1}: admit+capture without triggers ${off.toFixed(2)} ms, with ${on.toFixed(2)} ms (+${(on - off).toFixed(2)} ms)`);
  }
  await knex.destroy();
  await pg.stop();
}
void main();
