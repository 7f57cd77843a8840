import type { Knex } from 'knex';

// Two things that let the API's guards answer from process memory while staying exact:
//
// 1. Every change to a key, a user or an organization notifies `principal_changes` (statement-level
//    triggers, so operator SQL counts too). API processes cache authenticated principals and drop
//    them on that notification (api/guards/principal-cache.ts).
// 2. take_rate_limit_tokens() takes up to N tokens from a key's shared GCRA bucket in one round
//    trip, so a process can lease a batch and admit most requests without asking Postgres
//    (api/guards/rate-limiter.ts). The bucket stays the one shared truth: a token is never admitted twice.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION notify_principal_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('principal_changes', TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  for (const table of ['api_keys', 'users', 'organizations']) {
    await knex.raw(`
      CREATE TRIGGER ${table}_principal_change AFTER UPDATE OR DELETE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_change()`);
  }

  // A bucket of `window` seconds drained at one token per `interval` seconds: granting n tokens
  // moves tat n intervals later, and is allowed while tat stays within `window` of now.
  await knex.raw(`
    CREATE FUNCTION take_rate_limit_tokens(p_key text, p_interval double precision, p_window double precision, p_want integer,
                                           OUT o_granted integer, OUT o_tat double precision, OUT o_now double precision)
    LANGUAGE plpgsql AS $$
    DECLARE
      v_start double precision;
    BEGIN
      o_now := extract(epoch FROM clock_timestamp());
      INSERT INTO rate_limit_state (api_key_id, tat) VALUES (p_key, o_now) ON CONFLICT (api_key_id) DO NOTHING;
      SELECT r.tat INTO o_tat FROM rate_limit_state r WHERE r.api_key_id = p_key FOR UPDATE;
      v_start := greatest(o_tat, o_now);
      -- The epsilon keeps 60/7 x 7 (60.00000000000001 in floating point) from costing a token.
      o_granted := greatest(0, least(p_want, floor((p_window - (v_start - o_now)) / p_interval + 1e-9)::integer));
      IF o_granted > 0 THEN
        o_tat := v_start + o_granted * p_interval;
        UPDATE rate_limit_state SET tat = o_tat WHERE api_key_id = p_key;
      END IF;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS take_rate_limit_tokens(text, double precision, double precision, integer)');
  for (const table of ['api_keys', 'users', 'organizations']) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_principal_change ON ${table}`);
  }
  await knex.raw('DROP FUNCTION IF EXISTS notify_principal_change()');
}
