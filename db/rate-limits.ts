import type { Db } from './knex';

// A token bucket of `limit` requests per minute, as GCRA: one "theoretical arrival time" (tat) per
// key. Each admitted request moves tat one emission interval (60 s / limit) later; a request is
// admitted while tat stays within one minute of now, so a full bucket allows a burst of `limit`.
// Admission is one guarded upsert, atomic across every API process.

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be admitted (0 when allowed). */
  retryAfterSeconds: number;
}

const WINDOW_SECONDS = 60;

export async function takeRateLimitToken(db: Db, apiKeyId: string, limit: number): Promise<RateLimitResult> {
  const interval = WINDOW_SECONDS / limit;
  const admitted = await db.raw(
    `WITH clock AS (SELECT extract(epoch FROM clock_timestamp())::double precision AS now),
     admitted AS (
       INSERT INTO rate_limit_state AS r (api_key_id, tat)
       SELECT :apiKeyId, clock.now + :interval FROM clock
       ON CONFLICT (api_key_id) DO UPDATE
          SET tat = greatest(r.tat, excluded.tat - :interval) + :interval
        WHERE greatest(r.tat, excluded.tat - :interval) - (excluded.tat - :interval) + :interval <= :window + 1e-6
       RETURNING tat)
     SELECT admitted.tat, clock.now FROM admitted, clock`,
    { apiKeyId, interval, window: WINDOW_SECONDS },
  );
  const row = admitted.rows[0] as { tat: number; now: number } | undefined;
  if (row) return describe(true, limit, interval, row.tat, row.now);
  const current = await db.raw(
    `SELECT tat, extract(epoch FROM clock_timestamp())::double precision AS now FROM rate_limit_state WHERE api_key_id = ?`,
    [apiKeyId],
  );
  const state = current.rows[0] as { tat: number; now: number };
  return describe(false, limit, interval, state.tat, state.now);
}

function describe(allowed: boolean, limit: number, interval: number, tat: number, now: number): RateLimitResult {
  const ahead = Math.max(0, tat - now);
  return {
    allowed,
    limit,
    // The epsilon keeps 60/7 × 7 (60.00000000000001 in floating point) from costing a token.
    remaining: Math.max(0, Math.floor((WINDOW_SECONDS - ahead) / interval + 1e-9)),
    resetSeconds: Math.ceil(ahead),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(tat + interval - WINDOW_SECONDS - now)),
  };
}
