import type { Db } from '../../db/knex';

// Reservations without a generation: the wallet's guarded debit and its ledger row alone, one at a
// time or a batch per statement. Production never reserves like this (a reservation is made with
// its generation row by admitGeneration / admitGenerationsBatch in db/ledger.ts); bench/wallet.ts
// uses these to measure what the guarded statement and its commit cost on their own.

/**
 * Moves `amount` from available to reserved, only if available covers it. Returns false, and
 * writes nothing, when it does not.
 */
export async function reserveCredits(db: Db, args: { organizationId: string; generationId: string; amount: number }): Promise<boolean> {
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
 * Many reservations of one wallet in one statement, decided in order exactly as the same calls of
 * `reserveCredits` one after another would be: each is admitted if it fits in what the earlier
 * ones left. Every admitted one gets its own ledger row, and the wallet moves once by their sum,
 * guarded like a single reservation. Returns, in order, whether each was admitted.
 *
 * The wallet's row is locked before the walk, so the walk starts from its newest balance (under
 * READ COMMITTED a row lock returns the latest version); the update is guarded all the same.
 * One statement, so one commit: a hot wallet's reservations otherwise queue on its row lock and
 * each waits for the previous one's WAL flush; a batch shares one flush without loosening it.
 */
export async function reserveCreditsBatch(db: Db, organizationId: string, requests: { generationId: string; amount: number }[]): Promise<boolean[]> {
  if (requests.length === 0) return [];
  for (const r of requests) assertCredits(r.amount, 'amount');
  const result = await db.raw(
    `WITH RECURSIVE
       request AS (
         SELECT * FROM jsonb_to_recordset(:requests::jsonb) AS r(position int, generation_id text, amount bigint)),
       wallet AS (
         SELECT available_credits FROM wallets WHERE organization_id = :organizationId FOR NO KEY UPDATE),
       walk (position, remaining, admitted) AS (
         SELECT 0, (SELECT available_credits FROM wallet), false
         UNION ALL
         SELECT r.position, w.remaining - CASE WHEN r.amount <= w.remaining THEN r.amount ELSE 0 END, r.amount <= w.remaining
           FROM walk w JOIN request r ON r.position = w.position + 1),
       admitted AS (
         SELECT r.generation_id, r.amount FROM walk JOIN request r USING (position) WHERE walk.admitted),
       debit AS (
         UPDATE wallets
            SET available_credits = available_credits - t.total,
                reserved_credits = reserved_credits + t.total,
                updated_at = now()
           FROM (SELECT sum(amount) AS total FROM admitted) t
          WHERE organization_id = :organizationId AND available_credits >= t.total
          RETURNING organization_id)
     INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
     SELECT debit.organization_id, a.generation_id, 'reserve', -a.amount, a.amount FROM admitted a CROSS JOIN debit
     RETURNING generation_id`,
    {
      organizationId,
      requests: JSON.stringify(requests.map((r, i) => ({ position: i + 1, generation_id: r.generationId, amount: r.amount }))),
    },
  );
  const admitted = new Set((result.rows as { generation_id: string }[]).map((row) => row.generation_id));
  return requests.map((r) => admitted.has(r.generationId));
}

function assertCredits(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, not ${value}`);
}
