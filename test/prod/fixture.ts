import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { createKnex } from '../../db/knex';
import { startProdStack, type ProdStack } from '../../embedded/prod-stack';
import { PROVIDER_DOUBLE_ENV, PROVIDER_DOUBLES_API, PROVIDER_DOUBLES_WORKER } from '../helpers/provider-doubles';

// Mocha global fixtures of `npm run test:prod`: the production topology (embedded Postgres, the
// Temporal server on it, two API processes behind the round-robin proxy, two worker processes),
// started once per run in a throwaway folder (the stack's own, removed when it stops). The tests
// reach it as a client would (HTTP), plus a database connection and a Temporal client to check the
// money invariants from outside.

/** What the stack's processes were given, beyond the production defaults, for tests to run fast. */
const TEST_SETTINGS: Record<string, string> = {
  // Every real provider is configured and stood in for by the simulator in the workers
  // (PROVIDER_DOUBLES_WORKER): live keys run on their catalog routes and pay, in live mode.
  ...PROVIDER_DOUBLE_ENV,
  // Async simulator jobs finish quickly; #slow makes a longer one.
  SIMULATOR_ASYNC_LATENCY_MS: '300',
  // Test wallets spend fast with no history: the anomaly detector would pause their organizations.
  ANOMALY_FLOOR_CREDITS: '1000000000000',
  // Each API runs its own sync worker (its providers stood in for too, PROVIDER_DOUBLES_API) and
  // starts sync jobs eagerly on it, as in production by default (issue 40);
  // `API_EMBEDDED_WORKER=false npm run test:prod` runs the APIs without.
  API_EMBEDDED_WORKER: process.env.API_EMBEDDED_WORKER === 'false' ? 'false' : 'true',
  // Few slots (4 free for eager starts beside its pollers' 4, worker/sync-worker.ts), so that a test
  // can fill one API's with a few slow jobs and see the next start fall back to the queue.
  API_EMBEDDED_WORKER_SLOTS: '8',
};

interface ProdTestContext {
  stack: ProdStack;
  knex: Knex;
  temporal: Client;
}

let current: ProdTestContext | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

function context(): ProdTestContext {
  if (!current) throw new Error('the production stack is not running (test/prod/fixture.ts)');
  return current;
}

/** Whether the APIs run their own sync worker (API_EMBEDDED_WORKER) in this run. */
export const prodEmbeddedWorker = (): boolean => TEST_SETTINGS.API_EMBEDDED_WORKER === 'true';
/** The running production topology. */
export const prodStack = (): ProdStack => context().stack;
/** A connection to the service's database, for checking the money invariants. */
export const prodKnex = (): Knex => context().knex;
/** A client of the stack's Temporal server, for checking that no generation is stranded. */
export const prodTemporal = (): Client => context().temporal;

// The stack logs its steps and any process that exits on its own; each process's output goes to
// its log file under the stack's folder.
const log = (line: string) => process.stderr.write(`  [prod] ${line}\n`);

// Building the Temporal server on a fresh machine takes minutes, hence no timeout here.
export async function mochaGlobalSetup(this: unknown) {
  const started = Date.now();
  try {
    const stack = await startProdStack({ persistent: false, log, env: TEST_SETTINGS, workerEntry: PROVIDER_DOUBLES_WORKER, apiEntry: PROVIDER_DOUBLES_API });
    cleanups.push(() => stack.stop());
    const knex = createKnex(stack.databaseUrl, { poolMax: 5 });
    cleanups.push(() => knex.destroy());
    const connection = await Connection.connect({ address: stack.temporalAddress });
    cleanups.push(() => connection.close());
    current = { stack, knex, temporal: new Client({ connection }) };
  } catch (err) {
    await mochaGlobalTeardown();
    throw err;
  }
  process.stderr.write(`  [prod] ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${current.stack.apiUrl} (APIs ${current.stack.apiUrls.join(', ')})\n`);
}

export async function mochaGlobalTeardown() {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  cleanups.length = 0;
  current = undefined;
}
