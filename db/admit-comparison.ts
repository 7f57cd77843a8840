import type { Db } from './knex';
import { BudgetExceededError } from './ledger';
import type { NewGeneration } from './repos/generations';

// A comparison's admission (spec §4 POST /v1/comparisons): its row, every child's generation row
// and every child's reservation commit together in one statement, or nothing does. The wallet
// moves once by the sum of the children's estimates, guarded like any reservation, so a wallet that
// covers two of three estimates admits none of them, and two comparisons racing for one wallet
// queue on its row lock and can never overspend it. Each child gets its own `reserve` ledger row,
// so it captures or refunds its own share exactly as a lone generation does (db/ledger.ts).

export interface NewComparison {
  id: string;
  organization_id: string;
  api_key_id: string;
  environment: 'live' | 'test';
  modality: string;
  prompt: string;
  params_shared: Record<string, unknown>;
  /** Epoch ms, as for a generation (db/migrations/0008-admission-claims.ts), keyed by the comparison id. */
  admit_by?: number | null;
  /** The month (`YYYY-MM-01`, UTC) whose budget the reservations count against; default: the database's. */
  budget_period?: string | null;
  /** The `Cancel-After` deadline (epoch ms) of the comparison and each child; null or absent: none. */
  deadline_at?: number | null;
}

/** A child: a generation of the comparison's organization, key and environment. */
export type NewComparisonChild = Pick<NewGeneration, 'id' | 'model' | 'prompt' | 'params' | 'reserved_credits' | 'pricing'>;

/**
 * Admits the comparison with all its children, or nothing. Idempotent: a comparison that already has
 * a row was admitted before and is not charged again. With `admit_by` it claims the admission as a
 * generation's admission does, and admits nothing once that deadline has passed or the API gave up.
 * Over the key's monthly budget it reserves nothing and throws `BudgetExceededError`, as
 * `admitGeneration` does (the 100 % `request_refused` event is written by the refusing statement).
 * `onReserved` hears of the credits reserved when this statement wrote the reservation (never on a retry).
 */
export async function admitComparison(db: Db, comparison: NewComparison, children: NewComparisonChild[], onReserved?: (credits: number) => void): Promise<boolean> {
  for (const child of children) {
    if (!Number.isSafeInteger(child.reserved_credits) || child.reserved_credits < 0) {
      throw new RangeError(`reserved_credits of ${child.id} must be a non-negative integer, not ${child.reserved_credits}`);
    }
  }
  const live = comparison.environment === 'live';
  const total = live ? children.reduce((sum, c) => sum + c.reserved_credits, 0) : 0;
  const rows = children.map((c, position) => ({ ...c, pricing: c.pricing ?? null, position, charge: live && c.reserved_credits > 0 }));
  const result = await db.raw(
    `WITH existing AS (
       SELECT 1 FROM comparisons WHERE id = :id),
     claim AS (
       INSERT INTO admission_claims (generation_id, admit_by, claimed_by)
       SELECT :id, :admitBy::bigint, 'worker'
        WHERE :admitBy::bigint IS NOT NULL AND NOT EXISTS (SELECT 1 FROM existing)
          AND clock_timestamp() <= to_timestamp(:admitBy::bigint / 1000.0)
       ON CONFLICT DO NOTHING
       RETURNING 1),
     fresh AS (
       SELECT NOT EXISTS (SELECT 1 FROM existing) AND (:admitBy::bigint IS NULL OR EXISTS (SELECT 1 FROM claim)) AS ok),
     wallet AS (
       SELECT available_credits FROM wallets
        WHERE organization_id = :organizationId AND :total::bigint > 0 AND (SELECT ok FROM fresh)
          FOR NO KEY UPDATE),
     -- The key's budget, under its row lock taken after the wallet's (db/ledger.ts admitGeneration).
     budget AS MATERIALIZED (
       SELECT budget_admits(:apiKeyId, :budgetPeriod::date, :total::bigint) AS ok
         FROM wallet WHERE available_credits >= :total::bigint),
     debit AS (
       UPDATE wallets
          SET available_credits = available_credits - :total::bigint,
              reserved_credits = reserved_credits + :total::bigint,
              updated_at = now()
        WHERE organization_id = :organizationId AND available_credits >= :total::bigint
          AND :total::bigint > 0 AND (SELECT ok FROM fresh) AND (SELECT ok FROM budget)
        RETURNING organization_id),
     admitted AS (
       SELECT (SELECT ok FROM fresh) AND (:total::bigint = 0 OR EXISTS (SELECT 1 FROM debit)) AS ok),
     comparison AS (
       INSERT INTO comparisons (id, organization_id, api_key_id, environment, modality, status, prompt, params_shared, reserved_credits, deadline_at)
       SELECT :id, :organizationId, :apiKeyId, :environment, :modality, 'open', :prompt, :paramsShared::jsonb, :total::bigint, to_timestamp(:deadlineAt::bigint / 1000.0)
        WHERE (SELECT ok FROM admitted)
       RETURNING id),
     child AS (
       SELECT * FROM jsonb_to_recordset(:children::jsonb)
         AS c(position int, id text, model text, prompt text, params jsonb, reserved_credits bigint, pricing jsonb, charge boolean)),
     generation AS (
       INSERT INTO generations (id, organization_id, api_key_id, environment, modality, model, status, prompt, params,
                               reserved_credits, comparison_id, comparison_position, budget_period, pricing, deadline_at)
       SELECT c.id, :organizationId, :apiKeyId, :environment, :modality, c.model, 'queued', c.prompt, c.params,
              c.reserved_credits, comparison.id, c.position, :budgetPeriod::date, c.pricing, to_timestamp(:deadlineAt::bigint / 1000.0)
         FROM child c CROSS JOIN comparison
       RETURNING id),
     entry AS (
       INSERT INTO ledger_entries (organization_id, generation_id, kind, available_delta, reserved_delta)
       SELECT debit.organization_id, c.id, 'reserve', -c.reserved_credits, c.reserved_credits
         FROM child c CROSS JOIN debit CROSS JOIN comparison WHERE c.charge)
     SELECT EXISTS (SELECT 1 FROM existing) OR EXISTS (SELECT 1 FROM comparison) AS admitted,
            EXISTS (SELECT 1 FROM budget WHERE NOT ok) AS over_budget,
            EXISTS (SELECT 1 FROM comparison) AND EXISTS (SELECT 1 FROM debit) AS reserved`,
    {
      id: comparison.id,
      organizationId: comparison.organization_id,
      apiKeyId: comparison.api_key_id,
      environment: comparison.environment,
      modality: comparison.modality,
      prompt: comparison.prompt,
      paramsShared: JSON.stringify(comparison.params_shared),
      admitBy: comparison.admit_by ?? null,
      budgetPeriod: comparison.budget_period ?? null,
      deadlineAt: comparison.deadline_at ?? null,
      total,
      children: JSON.stringify(rows),
    },
  );
  if (result.rows[0]?.over_budget === true) throw new BudgetExceededError(comparison.api_key_id);
  if (result.rows[0]?.reserved === true) onReserved?.(total);
  return result.rows[0]?.admitted === true;
}
