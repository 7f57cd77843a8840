import type { Knex } from 'knex';
import { admitGeneration, admitGenerationsBatch, type ReservationListener } from './ledger';
import type { NewGeneration } from './repos/generations';

// Group commit in the application. A hot wallet's reservations queue on its row lock, and each
// waits for the previous one's commit (its WAL flush), so one statement per reservation caps a
// wallet at about one flush per reservation. Here, while one batch statement of a key (a wallet) is
// in flight, later callers wait in a queue; when it returns, everything queued goes as the next
// single statement. No timer: a lone caller goes at once and pays nothing extra, and under load the
// batches grow by themselves to what arrived during one statement. State is per process (one per
// worker); batches of different keys run side by side.

const DEFAULT_MAX_BATCH = 500;

export interface CoalescerStats {
  /** Batch statements run. */
  statements: number;
  /** Requests they carried. */
  requests: number;
}

interface Waiting<Req, Res> {
  request: Req;
  resolve: (result: Res) => void;
  reject: (err: unknown) => void;
}

/**
 * Coalesces calls of `run(key, requests)`, which must answer each request in order and change
 * nothing when a batch of several fails (a batch of one may have refused with effects, and is not
 * run again). A failed batch is retried request by request, so only a request that fails on its own
 * is rejected; the next batch runs all the same.
 */
export function createCoalescer<Req, Res>(run: (key: string, requests: Req[]) => Promise<Res[]>, opts: { maxBatch?: number } = {}) {
  const maxBatch = opts.maxBatch ?? DEFAULT_MAX_BATCH;
  const queues = new Map<string, Waiting<Req, Res>[]>();
  const stats: CoalescerStats = { statements: 0, requests: 0 };

  async function settle(key: string, batch: Waiting<Req, Res>[]): Promise<void> {
    const results = await run(
      key,
      batch.map((w) => w.request),
    );
    if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} got ${results.length} answers`);
    batch.forEach((w, i) => w.resolve(results[i]!));
  }

  async function drain(key: string, queue: Waiting<Req, Res>[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      stats.statements += 1;
      stats.requests += batch.length;
      try {
        await settle(key, batch);
      } catch (err) {
        // One bad request must not fail the others it happened to share a statement with: the
        // failed statement changed nothing, so each goes again on its own, and only it fails. A
        // request that failed alone has its answer: going again could decide it differently (a
        // budget refusal commits its claim and event, db/ledger.ts admitGeneration).
        if (batch.length === 1) batch[0]!.reject(err);
        else for (const w of batch) await settle(key, [w]).catch((e: unknown) => w.reject(e));
      }
    }
    // Nothing queued arrived during the last statement: the key is idle, and forgotten.
    queues.delete(key);
  }

  return {
    stats: stats as Readonly<CoalescerStats>,
    submit(key: string, request: Req): Promise<Res> {
      return new Promise<Res>((resolve, reject) => {
        const queue = queues.get(key);
        if (queue) {
          queue.push({ request, resolve, reject });
          return;
        }
        const fresh = [{ request, resolve, reject }];
        queues.set(key, fresh);
        void drain(key, fresh);
      });
    },
  };
}

/**
 * Admission of generations (`admitGenerationsBatch`), coalesced per organization, whose wallet is
 * the one row they would otherwise queue on. Resolves whether the generation was admitted. A batch
 * of one is `admitGeneration`, which decides the same and plans in half the time, so a lone caller
 * costs exactly what it did before coalescing.
 */
export function createAdmissionCoalescer(knex: Knex, opts: { maxBatch?: number; onReserved?: ReservationListener } = {}) {
  const { onReserved } = opts;
  const coalescer = createCoalescer<NewGeneration, boolean>(
    async (organizationId, gens) => (gens.length === 1 ? [await admitGeneration(knex, gens[0]!, onReserved)] : admitGenerationsBatch(knex, organizationId, gens, onReserved)),
    opts,
  );
  return {
    stats: coalescer.stats,
    admit: (gen: NewGeneration): Promise<boolean> => coalescer.submit(gen.organization_id, gen),
  };
}

export type AdmissionCoalescer = ReturnType<typeof createAdmissionCoalescer>;
