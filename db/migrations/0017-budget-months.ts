import type { Knex } from 'knex';

// Key budgets, issue 33 (decisions §4). Replaces the budget half of `usage_from_ledger`
// (0012-usage.ts) and adds the check an admission statement makes before it reserves.
//
// - Months. A statement can carry reservations of two months for one key (a coalesced batch that
//   holds requests either side of UTC midnight), so the trigger sums per key AND month and applies
//   the months in order: an older month's reservations count in that month, a later month's start
//   the later month's count. A reservation dated to a month older than the key's row (its API dated
//   it before midnight, another request of the new month was admitted first) is spend in flight
//   now: it counts in the row's month, and its generation's `budget_period` is moved to that month,
//   so what comes back from it later (refund, release) comes back to the month it was counted in.
//   What comes back from a reservation of a month before the row's leaves the row alone.
// - `budget_admits(key, period, amount)`: whether a reservation of `amount` fits in the key's
//   budget for its month, decided under the key's row lock (taken after the wallet's, the order
//   every money statement uses). The admission statements call it once the wallet covers the
//   request; when it does not fit, the statement reserves nothing and `budget_admits` writes the
//   100 % event with reason `request_refused` in that same statement. The trigger still refuses
//   (GSB01) any reservation that would pass the budget: the hard cap does not depend on callers.
// - `usage.budget_threshold` data: `threshold` (50 | 80 | 100), `reason` (`crossed` for 50 and 80;
//   `reached` | `request_refused` for 100), `api_key_id`, `budget_usd`, `spent_usd`, `period`
//   (`YYYY-MM`). One event per key, month and threshold (the subject names all three), so the 100 %
//   event says whichever came first. Spend is reservations in flight plus charges, as before.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION emit_budget_threshold(p_key text, p_org text, p_budget_usd numeric, p_spent bigint,
                                          p_period date, p_threshold int, p_reason text) RETURNS void
    LANGUAGE sql VOLATILE AS $$
      INSERT INTO events (id, organization_id, environment, type, subject_id, data)
      VALUES (new_event_id(), p_org, 'live', 'usage.budget_threshold',
              p_key || ':' || to_char(p_period, 'YYYY-MM') || ':' || p_threshold,
              jsonb_build_object('threshold', p_threshold, 'reason', p_reason, 'api_key_id', p_key,
                                 'budget_usd', p_budget_usd, 'spent_usd', round(p_spent / 1000.0, 3),
                                 'period', to_char(p_period, 'YYYY-MM')))
      ON CONFLICT (type, subject_id) DO NOTHING
    $$;

    CREATE FUNCTION budget_admits(p_key text, p_period date, p_amount bigint) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      key_org text;
      budget_usd numeric;
      budget_credits bigint;
      row_period date;
      row_spent bigint;
      month date;
      spent bigint;
    BEGIN
      SELECT organization_id, monthly_budget_usd, round(monthly_budget_usd * 1000)::bigint
        INTO key_org, budget_usd, budget_credits
        FROM api_keys WHERE id = p_key;
      IF budget_credits IS NULL OR p_amount <= 0 THEN
        RETURN true;
      END IF;
      SELECT period, spent_credits INTO row_period, row_spent FROM api_key_spend WHERE api_key_id = p_key FOR UPDATE;
      IF NOT FOUND THEN
        RETURN true;
      END IF;
      -- The month it would count in: its own, or the row's when the row has moved past it.
      month := greatest(coalesce(p_period, date_trunc('month', now() AT TIME ZONE 'UTC')::date), row_period);
      spent := CASE WHEN month = row_period THEN row_spent ELSE 0 END;
      IF spent + p_amount <= budget_credits THEN
        RETURN true;
      END IF;
      PERFORM emit_budget_threshold(p_key, key_org, budget_usd, spent, month, 100, 'request_refused');
      RETURN false;
    END $$;

    CREATE OR REPLACE FUNCTION usage_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      k record;
      m record;
      key_org text;
      budget_usd numeric;
      budget_credits bigint;
      row_period date;
      row_spent bigint;
      before bigint;
      delta bigint;
    BEGIN
      INSERT INTO usage_daily AS u (organization_id, environment, day, api_key_id, model, modality,
                                    credits_reserved, credits_charged, credits_refunded, credits_released)
      SELECT g.organization_id, g.environment, (g.created_at AT TIME ZONE 'UTC')::date, g.api_key_id, g.model, min(g.modality),
             sum(CASE WHEN e.kind = 'reserve' THEN e.reserved_delta ELSE 0 END),
             sum(CASE WHEN e.kind = 'capture' THEN -e.reserved_delta ELSE 0 END),
             sum(CASE WHEN e.kind = 'refund' THEN e.available_delta ELSE 0 END),
             sum(CASE WHEN e.kind = 'release' THEN e.available_delta ELSE 0 END)
        FROM new_entries e JOIN generations g ON g.id = e.generation_id
       GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT (organization_id, environment, day, api_key_id, model)
      DO UPDATE SET credits_reserved = u.credits_reserved + EXCLUDED.credits_reserved,
                    credits_charged = u.credits_charged + EXCLUDED.credits_charged,
                    credits_refunded = u.credits_refunded + EXCLUDED.credits_refunded,
                    credits_released = u.credits_released + EXCLUDED.credits_released;

      -- Keys in a fixed order; each key's row is locked (after the wallet, which the statement that
      -- wrote these entries already holds) before it is read, so the check is exact however many
      -- processes admit for the key at once.
      FOR k IN
        SELECT DISTINCT g.api_key_id
          FROM new_entries e JOIN generations g ON g.id = e.generation_id
         WHERE e.kind IN ('reserve', 'refund', 'release')
         ORDER BY 1
      LOOP
        SELECT s.period, s.spent_credits, a.organization_id, a.monthly_budget_usd, round(a.monthly_budget_usd * 1000)::bigint
          INTO row_period, row_spent, key_org, budget_usd, budget_credits
          FROM api_key_spend s JOIN api_keys a ON a.id = s.api_key_id
         WHERE s.api_key_id = k.api_key_id
           FOR UPDATE OF s;
        CONTINUE WHEN NOT FOUND;
        FOR m IN
          SELECT coalesce(g.budget_period, date_trunc('month', g.created_at AT TIME ZONE 'UTC')::date) AS period,
                 sum(CASE WHEN e.kind = 'reserve' THEN e.reserved_delta ELSE 0 END) AS reserved,
                 sum(CASE WHEN e.kind <> 'reserve' THEN e.available_delta ELSE 0 END) AS returned,
                 array_agg(g.id) FILTER (WHERE e.kind = 'reserve') AS reserved_ids
            FROM new_entries e JOIN generations g ON g.id = e.generation_id
           WHERE g.api_key_id = k.api_key_id AND e.kind IN ('reserve', 'refund', 'release')
           GROUP BY 1
           ORDER BY 1
        LOOP
          IF m.period > row_period THEN
            -- Only a reservation opens a later month.
            CONTINUE WHEN m.reserved = 0;
            row_period := m.period;
            row_spent := 0;
            delta := m.reserved - m.returned;
          ELSIF m.period < row_period THEN
            -- Reservations dated before the row's month count in the row's month, and are dated to
            -- it; what comes back from an earlier month's reservation leaves it alone.
            CONTINUE WHEN m.reserved = 0;
            UPDATE generations SET budget_period = row_period WHERE id = ANY (m.reserved_ids);
            delta := m.reserved;
          ELSE
            delta := m.reserved - m.returned;
          END IF;
          before := row_spent;
          row_spent := row_spent + delta;
          CONTINUE WHEN delta <= 0 OR budget_credits IS NULL;
          IF row_spent > budget_credits THEN
            RAISE EXCEPTION 'budget_exceeded: key % would spend % of its % credits in %', k.api_key_id, row_spent, budget_credits, row_period
              USING ERRCODE = 'GSB01';
          END IF;
          PERFORM emit_budget_threshold(k.api_key_id, key_org, budget_usd, row_spent, row_period, t,
                                        CASE WHEN t = 100 THEN 'reached' ELSE 'crossed' END)
             FROM unnest(ARRAY[50, 80, 100]) AS t
            WHERE before * 100 < t * budget_credits AND row_spent * 100 >= t * budget_credits;
        END LOOP;
        UPDATE api_key_spend SET period = row_period, spent_credits = row_spent WHERE api_key_id = k.api_key_id;
      END LOOP;
      RETURN NULL;
    END $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  // 0012's budget half, as it was.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION usage_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      moved record;
      key_org text;
      budget_usd numeric;
      budget_credits bigint;
    BEGIN
      INSERT INTO usage_daily AS u (organization_id, environment, day, api_key_id, model, modality,
                                    credits_reserved, credits_charged, credits_refunded, credits_released)
      SELECT g.organization_id, g.environment, (g.created_at AT TIME ZONE 'UTC')::date, g.api_key_id, g.model, min(g.modality),
             sum(CASE WHEN e.kind = 'reserve' THEN e.reserved_delta ELSE 0 END),
             sum(CASE WHEN e.kind = 'capture' THEN -e.reserved_delta ELSE 0 END),
             sum(CASE WHEN e.kind = 'refund' THEN e.available_delta ELSE 0 END),
             sum(CASE WHEN e.kind = 'release' THEN e.available_delta ELSE 0 END)
        FROM new_entries e JOIN generations g ON g.id = e.generation_id
       GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT (organization_id, environment, day, api_key_id, model)
      DO UPDATE SET credits_reserved = u.credits_reserved + EXCLUDED.credits_reserved,
                    credits_charged = u.credits_charged + EXCLUDED.credits_charged,
                    credits_refunded = u.credits_refunded + EXCLUDED.credits_refunded,
                    credits_released = u.credits_released + EXCLUDED.credits_released;
      FOR moved IN
        WITH d AS (
          SELECT g.api_key_id,
                 coalesce(g.budget_period, date_trunc('month', g.created_at AT TIME ZONE 'UTC')::date) AS period,
                 sum(CASE e.kind WHEN 'reserve' THEN e.reserved_delta ELSE -e.available_delta END) AS delta
            FROM new_entries e JOIN generations g ON g.id = e.generation_id
           WHERE e.kind IN ('reserve', 'refund', 'release')
           GROUP BY 1, 2)
        UPDATE api_key_spend s
           SET spent_credits = CASE WHEN s.period = d.period THEN s.spent_credits ELSE 0 END + d.delta,
               period = d.period
          FROM d
         WHERE s.api_key_id = d.api_key_id
           AND (s.period = d.period OR (s.period < d.period AND d.delta > 0))
        RETURNING s.api_key_id, s.period, s.spent_credits AS spent, d.delta
      LOOP
        CONTINUE WHEN moved.delta <= 0;
        SELECT organization_id, monthly_budget_usd, round(monthly_budget_usd * 1000)::bigint
          INTO key_org, budget_usd, budget_credits
          FROM api_keys WHERE id = moved.api_key_id;
        CONTINUE WHEN budget_credits IS NULL;
        IF moved.spent > budget_credits THEN
          RAISE EXCEPTION 'budget_exceeded: key % would spend % of its % credits in %', moved.api_key_id, moved.spent, budget_credits, moved.period
            USING ERRCODE = 'GSB01';
        END IF;
        INSERT INTO events (id, organization_id, environment, type, subject_id, data)
        SELECT new_event_id(), key_org, 'live', 'usage.budget_threshold',
               moved.api_key_id || ':' || to_char(moved.period, 'YYYY-MM') || ':' || t,
               jsonb_build_object('api_key_id', moved.api_key_id, 'threshold_percent', t, 'budget_usd', budget_usd,
                                  'spent_usd', round(moved.spent / 1000.0, 3), 'period', to_char(moved.period, 'YYYY-MM'))
          FROM unnest(ARRAY[50, 80, 100]) AS t
         WHERE (moved.spent - moved.delta) * 100 < t * budget_credits AND moved.spent * 100 >= t * budget_credits
        ON CONFLICT (type, subject_id) DO NOTHING;
      END LOOP;
      RETURN NULL;
    END $$;
    DROP FUNCTION IF EXISTS budget_admits(text, date, bigint);
    DROP FUNCTION IF EXISTS emit_budget_threshold(text, text, numeric, bigint, date, int, text);
  `);
}
