import type { Knex } from 'knex';
import type { Db } from './knex';
import type { NewGeneration } from './repos/generations';

// Every credit movement is one guarded SQL statement that writes its ledger rows and moves the
// wallet by exactly their deltas, so `wallet == sum(ledger)` holds after any statement, and a
// statement that would take a balance below zero changes nothing. A reservation ends exactly once:
// by a capture (plus a release of any unused rest) or by a refund, never both.

export type LedgerKind = 'topup' | 'adjustment' | 'reserve' | 'capture' | 'release' | 'refund';

/** SQLSTATE of the ledger trigger's budget refusal (db/migrations/0017-budget-months.ts). */
const BUDGET_EXCEEDED_CODE = 'GSB01';

/**
 * An admission statement refused a reservation that would take its API key over its
 * `monthly_budget_usd` for the month: it reserved nothing, and wrote the key's 100 % event with
 * reason `request_refused` if that month had none. Carries the trigger's SQLSTATE so that one
 * check (`isBudgetExceeded`) reads both ways a budget refuses.
 */
export class BudgetExceededError extends Error {
  readonly code = BUDGET_EXCEEDED_CODE;
  constructor(apiKeyId: string) {
    super(`budget_exceeded: key ${apiKeyId} has no room for this reservation in its monthly budget`);
  }
}

/**
 * A budget refused an admission: the statement's own check (`BudgetExceededError`), or the ledger
 * trigger (db/migrations/0017-budget-months.ts), whose refusal rolls the whole statement back (a
 * coalesced batch then goes again request by request, each deciding with the statement's check).
 */
export function isBudgetExceeded(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === BUDGET_EXCEEDED_CODE;
}

export interface WalletBalance {
  availableCredits: number;
  reservedCredits: number;
}

/**
 * Writes one ledger row keyed by (generation, kind) and applies it to the wallet; a second call
 * with the same key changes nothing. Returns whether this call moved money.
 */
async function applyEntry(
  db: Db,
  entry: {
    organizationId: string;
    generationId: string | null;
    kind: LedgerKind;
    availableDelta: number;
    reservedDelta: number;
    reason?: string;
  },
): Promise<boolean> {
  const result = await db.raw(
    `WITH entry AS (
       INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta, reason)
       VALUES (:organizationId, :generationId, :kind, :availableDelta, :reservedDelta, :reason)
       ON CONFLICT (generation_id, kind) DO NOTHING
       RETURNING organization_id, available_delta, reserved_delta)
     UPDATE wallets w
        SET available_credits = w.available_credits + entry.available_delta,
            reserved_credits = w.reserved_credits + entry.reserved_delta,
            updated_at = now()
       FROM entry
      WHERE w.organization_id = entry.organization_id
      RETURNING w.organization_id`,
    { reason: null, ...entry },
  );
  return result.rowCount === 1;
}

/**
 * Admission in one statement: records the queued generation and reserves its credits (live keys
 * with a non-zero estimate), or records nothing when the wallet does not cover it. One statement
 * holds the wallet's row lock for the shortest time. Idempotent: a generation that already has a
 * row was admitted before (a rejected one never gets a row).
 *
 * With an `admit_by` deadline it also claims the admission (db/migrations/0008-admission-claims.ts)
 * in the same statement, and admits nothing once the deadline has passed or the API has claimed it
 * first: the deadline is enforced where the reservation commits, not where the request arrived.
 *
 * A charged generation the wallet covers is then checked against its key's monthly budget
 * (`budget_admits`, db/migrations/0017-budget-months.ts), under the key's row lock taken after the
 * wallet's. Over budget, the statement reserves nothing, writes the 100 % `request_refused` event
 * (once per key and month) and commits, and the call throws `BudgetExceededError`.
 *
 * `onReserved` hears of the reservation when this statement wrote its ledger row (never for a
 * generation admitted before: a retry moves nothing), so the credits reserved are counted once.
 */
export async function admitGeneration(db: Db, gen: NewGeneration, onReserved?: ReservationListener): Promise<boolean> {
  assertCredits(gen.reserved_credits, 'reserved_credits');
  const charge = gen.environment === 'live' && gen.reserved_credits > 0;
  const result = await db.raw(
    `WITH existing AS (
       SELECT 1 FROM generations WHERE id = :id),
     claim AS (
       INSERT INTO admission_claims (generation_id, admit_by, claimed_by)
       SELECT :id, :admitBy::bigint, 'worker'
        WHERE :admitBy::bigint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM existing)
          AND clock_timestamp() <= to_timestamp(:admitBy::bigint / 1000.0)
       ON CONFLICT DO NOTHING
       RETURNING 1),
     claimed AS (
       SELECT :admitBy::bigint IS NULL OR EXISTS (SELECT 1 FROM claim) AS ok),
     wallet AS (
       SELECT available_credits FROM wallets
        WHERE organization_id = :organizationId AND :charge AND NOT EXISTS (SELECT 1 FROM existing) AND (SELECT ok FROM claimed)
          FOR NO KEY UPDATE),
     -- Evaluated from the locked wallet row, so the key's row is locked after the wallet's.
     budget AS MATERIALIZED (
       SELECT budget_admits(:apiKeyId, :budgetPeriod::date, :amount::bigint) AS ok
         FROM wallet WHERE available_credits >= :amount),
     debit AS (
       UPDATE wallets
          SET available_credits = available_credits - :amount,
              reserved_credits = reserved_credits + :amount,
              updated_at = now()
        WHERE organization_id = :organizationId AND available_credits >= :amount
          AND :charge AND NOT EXISTS (SELECT 1 FROM existing) AND (SELECT ok FROM claimed)
          AND (SELECT ok FROM budget)
        RETURNING organization_id),
     entry AS (
       INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
       SELECT organization_id, :id, 'reserve', -:amount::bigint, :amount::bigint FROM debit
       RETURNING 1),
     inserted AS (
       INSERT INTO generations (id, organization_id, api_key_id, environment, modality, model, status, prompt, params, reserved_credits, cache_key, budget_period, pricing, deadline_at)
       SELECT :id, :organizationId, :apiKeyId, :environment, :modality, :model, 'queued', :prompt, :params::jsonb, :amount, :cacheKey, :budgetPeriod::date, :pricing::jsonb,
              to_timestamp(:deadlineAt::bigint / 1000.0)
        WHERE NOT EXISTS (SELECT 1 FROM existing) AND (SELECT ok FROM claimed) AND (NOT :charge OR EXISTS (SELECT 1 FROM debit))
       RETURNING id)
     SELECT EXISTS (SELECT 1 FROM existing) OR EXISTS (SELECT 1 FROM inserted) AS admitted,
            EXISTS (SELECT 1 FROM budget WHERE NOT ok) AS over_budget,
            EXISTS (SELECT 1 FROM entry) AS reserved`,
    {
      id: gen.id,
      organizationId: gen.organization_id,
      apiKeyId: gen.api_key_id,
      environment: gen.environment,
      modality: gen.modality,
      model: gen.model,
      prompt: gen.prompt,
      params: JSON.stringify(gen.params),
      amount: gen.reserved_credits,
      cacheKey: gen.cache_key ?? null,
      admitBy: gen.admit_by ?? null,
      budgetPeriod: gen.budget_period ?? null,
      pricing: gen.pricing ? JSON.stringify(gen.pricing) : null,
      deadlineAt: gen.deadline_at ?? null,
      charge,
    },
  );
  if (result.rows[0]?.over_budget === true) throw new BudgetExceededError(gen.api_key_id);
  if (result.rows[0]?.reserved === true) onReserved?.(gen);
  return result.rows[0]?.admitted === true;
}

/** Told of each reservation a statement wrote (its `reserve` ledger row), after the statement. */
export type ReservationListener = (gen: NewGeneration) => void;

/**
 * `admitGeneration` for many generations of one organization in one statement, decided in order
 * exactly as the same calls one after another would be: a generation that already has a row was
 * admitted before and is not charged again; a sandbox or zero-cost one needs no credits; a charged
 * one is admitted if its estimate fits in what the earlier ones left. The admitted ones get their
 * generation rows and a `reserve` ledger row each, and the wallet moves once by their sum, guarded
 * like a single reservation. Returns, in order, whether each was admitted. A generation id given
 * twice is decided once (a retried activity whose first attempt is still queued).
 *
 * Budgets are checked by the ledger trigger, per key and month: a batch that would take a key over
 * its budget fails as a whole and changes nothing, and the coalescer then decides its requests one
 * by one (`admitGeneration`), which refuses exactly the ones the budget has no room for.
 *
 * The wallet's row is locked before the walk, so the walk starts from its newest balance (under
 * READ COMMITTED a row lock returns the latest version); the update is guarded all the same. A
 * batch with nothing to charge does not lock the wallet at all. The walk indexes an array
 * of the amounts (materialized once), so a batch of n costs O(n), and one commit serves the whole
 * batch. "Already has a row" is a scalar subquery so that it stays one primary-key probe per
 * generation: as `NOT EXISTS`, the planner hashes the whole generations table for it.
 */
export async function admitGenerationsBatch(db: Db, organizationId: string, gens: NewGeneration[], onReserved?: ReservationListener): Promise<boolean[]> {
  const unique = new Map<string, NewGeneration>();
  for (const gen of gens) {
    if (gen.organization_id !== organizationId) {
      throw new RangeError(`generation ${gen.id} belongs to ${gen.organization_id}, not ${organizationId}`);
    }
    assertCredits(gen.reserved_credits, 'reserved_credits');
    if (!unique.has(gen.id)) unique.set(gen.id, gen);
  }
  if (unique.size === 0) return [];
  const requests = [...unique.values()].map((gen, i) => ({
    position: i + 1,
    id: gen.id,
    api_key_id: gen.api_key_id,
    environment: gen.environment,
    modality: gen.modality,
    model: gen.model,
    prompt: gen.prompt,
    params: gen.params,
    amount: gen.reserved_credits,
    cache_key: gen.cache_key ?? null,
    admit_by: gen.admit_by ?? null,
    budget_period: gen.budget_period ?? null,
    pricing: gen.pricing ?? null,
    deadline_at: gen.deadline_at ?? null,
    charge: gen.environment === 'live' && gen.reserved_credits > 0,
  }));
  const result = await db.raw(
    `WITH RECURSIVE
       given AS (
         SELECT r.*, (SELECT true FROM generations g WHERE g.id = r.id) IS NULL AS fresh
           FROM jsonb_to_recordset(:requests::jsonb) AS r(position int, id text, api_key_id text, environment text,
                  modality text, model text, prompt text, params jsonb, amount bigint, cache_key text, admit_by bigint,
                  budget_period date, pricing jsonb, deadline_at bigint, charge boolean)),
       claim AS (
         INSERT INTO admission_claims (generation_id, admit_by, claimed_by)
         SELECT id, admit_by, 'worker' FROM given
          WHERE fresh AND admit_by IS NOT NULL AND clock_timestamp() <= to_timestamp(admit_by / 1000.0)
         ON CONFLICT DO NOTHING
         RETURNING generation_id),
       -- A fresh request whose deadline passed, or that the API gave up on first, is decided as refused.
       request AS (
         SELECT g.position, g.id, g.api_key_id, g.environment, g.modality, g.model, g.prompt, g.params, g.amount,
                g.cache_key, g.budget_period, g.pricing, g.deadline_at, g.charge,
                g.fresh AND (g.admit_by IS NULL OR g.id IN (SELECT generation_id FROM claim)) AS fresh,
                NOT g.fresh AS existed
           FROM given g),
       wallet AS (
         SELECT available_credits FROM wallets
          WHERE organization_id = :organizationId AND EXISTS (SELECT 1 FROM request WHERE charge AND fresh)
            FOR NO KEY UPDATE),
       plan AS MATERIALIZED (
         SELECT array_agg(CASE WHEN charge AND fresh THEN amount ELSE 0 END ORDER BY position) AS debits, count(*)::int AS n
           FROM request),
       walk (position, remaining, admitted) AS (
         SELECT 0, coalesce((SELECT available_credits FROM wallet), 0), false
         UNION ALL
         SELECT w.position + 1,
                w.remaining - CASE WHEN p.debits[w.position + 1] <= w.remaining THEN p.debits[w.position + 1] ELSE 0 END,
                p.debits[w.position + 1] <= w.remaining
           FROM walk w CROSS JOIN plan p WHERE w.position < p.n),
       decided AS (
         SELECT r.*, walk.admitted FROM walk JOIN request r USING (position)),
       -- A reservation counts in the latest month any earlier reservation of its key in the batch
       -- counted in, as it would after them one by one (db/migrations/0017-budget-months.ts), so a
       -- key's months only ever rise along the batch and the trigger can apply them in order.
       dated AS (
         SELECT d.*,
                CASE WHEN d.admitted AND d.charge AND d.fresh
                     THEN max(d.budget_period) FILTER (WHERE d.admitted AND d.charge AND d.fresh)
                            OVER (PARTITION BY d.api_key_id ORDER BY d.position)
                     ELSE d.budget_period END AS period
           FROM decided d),
       debit AS (
         UPDATE wallets
            SET available_credits = available_credits - t.total,
                reserved_credits = reserved_credits + t.total,
                updated_at = now()
           FROM (SELECT sum(amount) AS total FROM decided WHERE admitted AND charge AND fresh) t
          WHERE organization_id = :organizationId AND available_credits >= t.total
          RETURNING organization_id),
       entry AS (
         INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
         SELECT debit.organization_id, d.id, 'reserve', -d.amount, d.amount
           FROM decided d CROSS JOIN debit WHERE d.admitted AND d.charge AND d.fresh
         RETURNING generation_id),
       inserted AS (
         INSERT INTO generations (id, organization_id, api_key_id, environment, modality, model, status, prompt, params, reserved_credits, cache_key, budget_period, pricing, deadline_at)
         SELECT d.id, :organizationId, d.api_key_id, d.environment, d.modality, d.model, 'queued', d.prompt, d.params, d.amount, d.cache_key, d.period, d.pricing,
                to_timestamp(d.deadline_at / 1000.0)
           FROM dated d
          WHERE d.admitted AND d.fresh AND (NOT d.charge OR EXISTS (SELECT 1 FROM debit))
         RETURNING id)
     SELECT id, false AS reserved FROM decided WHERE existed
     UNION ALL
     SELECT id, id IN (SELECT generation_id FROM entry) FROM inserted`,
    { organizationId, requests: JSON.stringify(requests) },
  );
  const rows = result.rows as { id: string; reserved: boolean }[];
  for (const row of rows) if (row.reserved) onReserved?.(unique.get(row.id)!);
  const admitted = new Set(rows.map((row) => row.id));
  return gens.map((gen) => admitted.has(gen.id));
}

/**
 * Success: `charged` of the reservation is spent and the rest goes back to available. `reserved`
 * must be the generation's reservation. Returns whether this call moved money: a retry, or a
 * generation that was already refunded, moves nothing.
 */
export async function captureCredits(db: Db, args: { organizationId: string; generationId: string; reserved: number; charged: number }): Promise<boolean> {
  assertCredits(args.reserved, 'reserved');
  assertCredits(args.charged, 'charged');
  if (args.charged > args.reserved) {
    throw new RangeError(`cannot capture ${args.charged} of a ${args.reserved}-credit reservation`);
  }
  return settleReservation(db, { ...args, kind: 'capture' });
}

/**
 * Failure or cancel: the whole reservation goes back to available. Returns whether this call moved
 * money: a retry, or a generation that was already captured, moves nothing.
 */
export async function refundCredits(db: Db, args: { organizationId: string; generationId: string; amount: number }): Promise<boolean> {
  assertCredits(args.amount, 'amount');
  return settleReservation(db, { organizationId: args.organizationId, generationId: args.generationId, reserved: args.amount, charged: 0, kind: 'refund' });
}

/**
 * Ends a reservation with its one terminal movement: a capture (with a release row for any unused
 * rest) or a refund, whichever comes first; every later capture or refund of that generation
 * changes nothing. A generation without a reservation has nothing to end.
 *
 * Two statements in one transaction. The first locks the reservation's ledger row, so that a
 * capture and a refund of the same generation queue up behind each other; the second
 * (settleLockedReservation) starts after the lock is granted, so under READ COMMITTED its snapshot
 * sees whichever terminal row won, and it writes the rows and moves the wallet only if there is none.
 */
async function settleReservation(db: Db, args: Settlement): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const reservation = await trx.raw(
      `SELECT reserved_delta AS amount FROM ledger_entries
        WHERE generation_id = :generationId AND kind = 'reserve' AND organization_id = :organizationId
        FOR UPDATE`,
      { generationId: args.generationId, organizationId: args.organizationId },
    );
    return settleLockedReservation(trx, args, reservation.rows[0]?.amount);
  });
}

/** A reservation's terminal movement: a capture of `charged` (the rest released) or a refund. */
export interface Settlement {
  organizationId: string;
  generationId: string;
  /** What the caller believes was reserved: a different amount on the ledger is refused. */
  reserved: number;
  charged: number;
  kind: 'capture' | 'refund';
}

/**
 * A generation's terminal UPDATE ... RETURNING * (`finish`, from the generations repository) and,
 * in the same statement, the lock on its `reserve` ledger row, taken after the generation's row
 * (the order every settlement takes): the first statement of settleReservation and the generation's
 * own, in one round trip. Returns the updated row and the amount reserved (undefined: nothing was),
 * or undefined when `finish` updated nothing (the generation was already terminal). The second
 * statement is settleLockedReservation's, in the same transaction.
 */
export async function finishLockingReservation<Row extends { id: string; organization_id: string }>(
  trx: Knex.Transaction,
  finish: Knex.QueryBuilder,
): Promise<{ row: Row; reservedAmount: number | undefined } | undefined> {
  // The reservation joins the updated row, so the generation's row is locked first.
  const result = await trx.raw(
    `WITH done AS (:finish),
     reservation AS MATERIALIZED (
       SELECT l.reserved_delta AS amount FROM ledger_entries l JOIN done ON l.generation_id = done.id AND l.organization_id = done.organization_id
        WHERE l.kind = 'reserve'
          FOR UPDATE OF l)
     SELECT done.*, (SELECT amount FROM reservation) AS reservation_amount FROM done`,
    { finish },
  );
  const first = result.rows[0] as (Row & { reservation_amount: number | null }) | undefined;
  if (!first) return undefined;
  const { reservation_amount: amount, ...row } = first;
  return { row: row as unknown as Row, reservedAmount: amount ?? undefined };
}

/**
 * The second statement of a settlement: writes the terminal ledger rows and moves the wallet, unless
 * the generation already has a terminal row. Call it in the transaction whose earlier statement
 * locked the reservation's row (`lockedAmount` is what that row reserved; undefined: there is no
 * reservation, nothing moves), so that its snapshot sees whichever terminal row won.
 *
 * `alongside` are statements of the same transaction sent in the same round trip, as
 * data-modifying CTEs: the generation's event (the outbox row) and its outputs. They run whether or
 * not money moves, and see the same snapshot (they touch none of the ledger's rows). Returns
 * whether this call moved money.
 */
export async function settleLockedReservation(trx: Knex.Transaction, args: Settlement, lockedAmount: number | undefined, alongside: Knex.QueryBuilder[] = []): Promise<boolean> {
  assertCredits(args.reserved, 'reserved');
  assertCredits(args.charged, 'charged');
  if (args.charged > args.reserved) throw new RangeError(`cannot capture ${args.charged} of a ${args.reserved}-credit reservation`);
  const alongsideBindings = Object.fromEntries(alongside.map((statement, i) => [`alongside${i}`, statement]));
  const alongsideCtes = alongside.map((_, i) => `alongside${i} AS (:alongside${i}),`).join('\n');
  if (lockedAmount === undefined) {
    if (alongside.length > 0) await trx.raw(`WITH ${alongsideCtes.slice(0, -1)} SELECT 1`, alongsideBindings);
    return false;
  }
  const amount = lockedAmount;
  if (amount !== args.reserved) {
    throw new RangeError(`generation ${args.generationId} reserved ${amount} credits, not ${args.reserved}`);
  }
  const refund = args.kind === 'refund';
  const released = refund ? 0 : amount - args.charged;
  const result = await trx.raw(
    `WITH ${alongsideCtes}
     terminal AS (
       INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
       SELECT :organizationId, :generationId, :kind, :terminalAvailable::bigint, -:terminalReserved::bigint
        WHERE NOT EXISTS (
          SELECT 1 FROM ledger_entries WHERE generation_id = :generationId AND kind IN ('capture', 'refund'))
       ON CONFLICT (generation_id, kind) DO NOTHING
       RETURNING organization_id),
     released AS (
       INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
       SELECT organization_id, :generationId, 'release', :released::bigint, -:released::bigint
         FROM terminal WHERE :released::bigint > 0)
     UPDATE wallets w
        SET available_credits = w.available_credits + :backToAvailable::bigint,
            reserved_credits = w.reserved_credits - :amount::bigint,
            updated_at = now()
       FROM terminal
      WHERE w.organization_id = terminal.organization_id
      RETURNING w.organization_id`,
    {
      ...alongsideBindings,
      organizationId: args.organizationId,
      generationId: args.generationId,
      kind: args.kind,
      terminalAvailable: refund ? amount : 0,
      terminalReserved: refund ? amount : args.charged,
      released,
      backToAvailable: amount - (refund ? 0 : args.charged),
      amount,
    },
  );
  return result.rowCount === 1;
}

function assertCredits(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, not ${value}`);
}

/** Runs `fn` in `db` when it is already a transaction, else in a new one. */
function inTransaction<T>(db: Db, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Knex.Transaction) : db.transaction(fn);
}

/** Operator top-up (positive) or adjustment (negative, never below zero). */
export async function adjustCredits(db: Db, args: { organizationId: string; amount: number; reason: string }): Promise<boolean> {
  return applyEntry(db, {
    organizationId: args.organizationId,
    generationId: null,
    kind: args.amount >= 0 ? 'topup' : 'adjustment',
    availableDelta: args.amount,
    reservedDelta: 0,
    reason: args.reason,
  });
}

export async function getWalletBalance(db: Db, organizationId: string): Promise<WalletBalance> {
  const row = await db('wallets').where({ organization_id: organizationId }).first();
  if (!row) throw new Error(`organization ${organizationId} has no wallet`);
  return { availableCredits: row.available_credits, reservedCredits: row.reserved_credits };
}

/** The sums of the ledger rows: equal to the wallet whenever the invariant holds. */
export async function sumLedger(db: Db, organizationId: string): Promise<WalletBalance> {
  const row = await db('ledger_entries')
    .where({ organization_id: organizationId })
    .select(db.raw('coalesce(sum(available_delta), 0)::bigint AS available'), db.raw('coalesce(sum(reserved_delta), 0)::bigint AS reserved'))
    .first();
  return { availableCredits: Number(row?.available ?? 0), reservedCredits: Number(row?.reserved ?? 0) };
}
