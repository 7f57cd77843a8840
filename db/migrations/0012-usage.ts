import type { Knex } from 'knex';

// Usage and budgets (issue 12). Both are projections of the ledger that Postgres keeps in the
// transaction that writes it, by statement triggers, so no path that moves money (admission,
// coalesced admission, comparison admission, capture, release, refund) can forget them, and
// neither can drift from the ledger:
//
// - `usage_daily`: per organization, environment, UTC day of the generation's creation, key and
//   model: how many generations, and the credits reserved, charged (captured), refunded (failure,
//   cancel) and released (the unused rest of a capture). `GET /v1/usage` sums these rows, so a
//   month is a few thousand rows, not a million generations.
// - `api_key_spend`: per key, the month (`period`, its first day) it last spent in, and what it
//   spent: its reservations of that month, less what came back (refunds and releases). A
//   reservation in flight counts in full; a capture changes nothing, since the charge is part of
//   the reservation. The ledger trigger moves the key's row in the admission's own statement,
//   and refuses (SQLSTATE GSB01, `budget_exceeded`) a statement whose reservations would take a
//   key over its `monthly_budget_usd`: the whole admission (a coalesced batch or a comparison
//   included) then changes nothing. The UPDATE waits for any other admission of the key, so
//   parallel requests from any number of processes can never overshoot. The same trigger writes
//   `usage.budget_threshold` at 50, 80 and 100 %. A generation carries the month it was admitted
//   in (`budget_period`, from the API's clock): what comes back from an earlier month's
//   reservation does not lower this month's spend.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('generations', (t) => {
    t.date('budget_period');
  });
  await knex.schema.createTable('usage_daily', (t) => {
    t.text('organization_id').notNullable().references('organizations.id');
    t.text('environment').notNullable();
    t.date('day').notNullable();
    t.text('api_key_id').notNullable();
    t.text('model').notNullable();
    t.text('modality').notNullable();
    t.integer('generations').notNullable().defaultTo(0);
    t.bigInteger('credits_reserved').notNullable().defaultTo(0);
    t.bigInteger('credits_charged').notNullable().defaultTo(0);
    t.bigInteger('credits_refunded').notNullable().defaultTo(0);
    t.bigInteger('credits_released').notNullable().defaultTo(0);
    t.primary(['organization_id', 'environment', 'day', 'api_key_id', 'model']);
  });
  await knex.schema.createTable('api_key_spend', (t) => {
    t.text('api_key_id').primary().references('api_keys.id');
    t.date('period').notNullable();
    t.bigInteger('spent_credits').notNullable().defaultTo(0);
  });

  await knex.raw(`
    CREATE FUNCTION usage_count_generations() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO usage_daily AS u (organization_id, environment, day, api_key_id, model, modality, generations)
      SELECT organization_id, environment, (created_at AT TIME ZONE 'UTC')::date, api_key_id, model, min(modality), count(*)
        FROM new_generations
       GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT (organization_id, environment, day, api_key_id, model)
      DO UPDATE SET generations = u.generations + EXCLUDED.generations;
      RETURN NULL;
    END $$;

    CREATE TRIGGER generations_usage AFTER INSERT ON generations
      REFERENCING NEW TABLE AS new_generations FOR EACH STATEMENT EXECUTE FUNCTION usage_count_generations();

    -- lib/ids.ts's shape (evt_ and 24 base62 characters), for events written by triggers.
    CREATE FUNCTION new_event_id() RETURNS text LANGUAGE sql VOLATILE AS $$
      SELECT 'evt_' || string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 62)::int, 1), '')
        FROM generate_series(1, 24)
    $$;

    CREATE FUNCTION usage_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
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

      -- A reservation in a later month starts that month's count; what comes back from an earlier
      -- month's reservation leaves the current month alone. The UPDATE waits for any other
      -- admission holding the key's row and then sees its spend, so the check below is exact
      -- however many processes admit for the key at once.
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
        -- Each threshold once per key and month: the event's subject names all three.
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

    CREATE TRIGGER ledger_usage AFTER INSERT ON ledger_entries
      REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION usage_from_ledger();

    CREATE FUNCTION api_key_spend_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO api_key_spend (api_key_id, period)
      SELECT id, date_trunc('month', now() AT TIME ZONE 'UTC')::date FROM new_keys
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;

    CREATE TRIGGER api_keys_spend AFTER INSERT ON api_keys
      REFERENCING NEW TABLE AS new_keys FOR EACH STATEMENT EXECUTE FUNCTION api_key_spend_row();
  `);

  // What already happened, so usage covers the history from before this migration.
  await knex.raw(`
    INSERT INTO usage_daily (organization_id, environment, day, api_key_id, model, modality, generations,
                             credits_reserved, credits_charged, credits_refunded, credits_released)
    SELECT g.organization_id, g.environment, (g.created_at AT TIME ZONE 'UTC')::date, g.api_key_id, g.model, min(g.modality), count(*),
           coalesce(sum(m.reserved), 0), coalesce(sum(m.charged), 0), coalesce(sum(m.refunded), 0), coalesce(sum(m.released), 0)
      FROM generations g
      LEFT JOIN (SELECT generation_id,
                        sum(CASE WHEN kind = 'reserve' THEN reserved_delta ELSE 0 END) AS reserved,
                        sum(CASE WHEN kind = 'capture' THEN -reserved_delta ELSE 0 END) AS charged,
                        sum(CASE WHEN kind = 'refund' THEN available_delta ELSE 0 END) AS refunded,
                        sum(CASE WHEN kind = 'release' THEN available_delta ELSE 0 END) AS released
                   FROM ledger_entries WHERE generation_id IS NOT NULL GROUP BY generation_id) m ON m.generation_id = g.id
     GROUP BY 1, 2, 3, 4, 5
  `);
  await knex.raw(`
    INSERT INTO api_key_spend (api_key_id, period)
    SELECT id, date_trunc('month', now() AT TIME ZONE 'UTC')::date FROM api_keys
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS api_keys_spend ON api_keys;
    DROP TRIGGER IF EXISTS ledger_usage ON ledger_entries;
    DROP TRIGGER IF EXISTS generations_usage ON generations;
    DROP FUNCTION IF EXISTS api_key_spend_row();
    DROP FUNCTION IF EXISTS usage_from_ledger();
    DROP FUNCTION IF EXISTS usage_count_generations();
    DROP FUNCTION IF EXISTS new_event_id();
  `);
  await knex.schema.dropTableIfExists('api_key_spend');
  await knex.schema.dropTableIfExists('usage_daily');
  await knex.schema.alterTable('generations', (t) => {
    t.dropColumn('budget_period');
  });
}
