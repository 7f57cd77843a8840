import type { Db } from './knex';
import type { NewGeneration } from './repos/generations';

// Every credit movement is one guarded SQL statement that writes a ledger row and moves the wallet
// by exactly that row's deltas, so `wallet == sum(ledger)` holds after any statement, and a
// statement that would take a balance below zero changes nothing.

export type LedgerKind = 'topup' | 'adjustment' | 'reserve' | 'capture' | 'release' | 'refund';

export interface WalletBalance {
  availableCredits: number;
  reservedCredits: number;
}

/**
 * Moves `amount` from available to reserved, only if available covers it. Returns false, and
 * writes nothing, when it does not.
 */
export async function reserveCredits(
  db: Db,
  args: { organizationId: string; generationId: string; amount: number },
): Promise<boolean> {
  const result = await db.raw(
    `WITH debit AS (
       UPDATE wallets
          SET available_credits = available_credits - :amount,
              reserved_credits = reserved_credits + :amount,
              updated_at = now()
        WHERE organization_id = :organizationId AND available_credits >= :amount
        RETURNING organization_id)
     INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
     SELECT organization_id, :generationId, 'reserve', -:amount::bigint, :amount::bigint FROM debit
     RETURNING id`,
    args,
  );
  return result.rowCount === 1;
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
 */
export async function admitGeneration(db: Db, gen: NewGeneration): Promise<boolean> {
  const charge = gen.environment === 'live' && gen.reserved_credits > 0;
  const result = await db.raw(
    `WITH existing AS (
       SELECT 1 FROM generations WHERE id = :id),
     debit AS (
       UPDATE wallets
          SET available_credits = available_credits - :amount,
              reserved_credits = reserved_credits + :amount,
              updated_at = now()
        WHERE organization_id = :organizationId AND available_credits >= :amount
          AND :charge AND NOT EXISTS (SELECT 1 FROM existing)
        RETURNING organization_id),
     entry AS (
       INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
       SELECT organization_id, :id, 'reserve', -:amount::bigint, :amount::bigint FROM debit),
     inserted AS (
       INSERT INTO generations (id, organization_id, api_key_id, environment, modality, model, status, prompt, params, reserved_credits)
       SELECT :id, :organizationId, :apiKeyId, :environment, :modality, :model, 'queued', :prompt, :params::jsonb, :amount
        WHERE NOT EXISTS (SELECT 1 FROM existing) AND (NOT :charge OR EXISTS (SELECT 1 FROM debit))
       RETURNING id)
     SELECT EXISTS (SELECT 1 FROM existing) OR EXISTS (SELECT 1 FROM inserted) AS admitted`,
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
      charge,
    },
  );
  return result.rows[0]?.admitted === true;
}

/** Success: `charged` of the reservation is spent and the rest goes back to available. */
export async function captureCredits(
  db: Db,
  args: { organizationId: string; generationId: string; reserved: number; charged: number },
): Promise<void> {
  if (args.charged > args.reserved) {
    throw new RangeError(`cannot capture ${args.charged} of a ${args.reserved}-credit reservation`);
  }
  const base = { organizationId: args.organizationId, generationId: args.generationId };
  await applyEntry(db, { ...base, kind: 'capture', availableDelta: 0, reservedDelta: -args.charged });
  const unused = args.reserved - args.charged;
  if (unused > 0) {
    await applyEntry(db, { ...base, kind: 'release', availableDelta: unused, reservedDelta: -unused });
  }
}

/** Failure or cancel: the whole reservation goes back to available. */
export async function refundCredits(
  db: Db,
  args: { organizationId: string; generationId: string; amount: number },
): Promise<void> {
  await applyEntry(db, {
    organizationId: args.organizationId,
    generationId: args.generationId,
    kind: 'refund',
    availableDelta: args.amount,
    reservedDelta: -args.amount,
  });
}

/** Operator top-up (positive) or adjustment (negative, never below zero). */
export async function adjustCredits(
  db: Db,
  args: { organizationId: string; amount: number; reason: string },
): Promise<boolean> {
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
    .select(
      db.raw('coalesce(sum(available_delta), 0)::bigint AS available'),
      db.raw('coalesce(sum(reserved_delta), 0)::bigint AS reserved'),
    )
    .first();
  return { availableCredits: Number(row?.available ?? 0), reservedCredits: Number(row?.reserved ?? 0) };
}
