import type { Db } from './knex';

// A token bucket of `limit` requests per minute, as GCRA: one "theoretical arrival time" (tat) per
// key in rate_limit_state. Taking tokens is one call of take_rate_limit_tokens() (migration 0003),
// atomic across every API process.

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be admitted (0 when allowed). */
  retryAfterSeconds: number;
}

export interface TokenGrant {
  granted: number;
  /** Tokens left in the shared bucket after this grant. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  aheadSeconds: number;
  /** Seconds until one more token can be granted (0 when one can be now). */
  waitSeconds: number;
}

export function emissionInterval(limit: number): number {
  return RATE_LIMIT_WINDOW_SECONDS / limit;
}

/** Takes up to `want` tokens (at least one, or none when the bucket is empty). */
export async function takeRateLimitTokens(db: Db, apiKeyId: string, limit: number, want: number): Promise<TokenGrant> {
  const interval = emissionInterval(limit);
  const result = await db.raw('SELECT o_granted, o_tat, o_now FROM take_rate_limit_tokens(?, ?, ?, ?)', [apiKeyId, interval, RATE_LIMIT_WINDOW_SECONDS, want]);
  const row = result.rows[0] as { o_granted: number; o_tat: number; o_now: number };
  const ahead = Math.max(0, row.o_tat - row.o_now);
  return {
    granted: row.o_granted,
    remaining: Math.max(0, Math.floor((RATE_LIMIT_WINDOW_SECONDS - ahead) / interval + 1e-9)),
    aheadSeconds: ahead,
    waitSeconds: Math.max(0, row.o_tat + interval - RATE_LIMIT_WINDOW_SECONDS - row.o_now),
  };
}

/** Gives back leased tokens that were never used, so the shared bucket does not lose them. */
export async function returnRateLimitTokens(db: Db, apiKeyId: string, interval: number, count: number): Promise<void> {
  await db('rate_limit_state')
    .where({ api_key_id: apiKeyId })
    .update({ tat: db.raw('tat - ?', [interval * count]) });
}

/** One token, straight from the shared bucket (what the leasing limiter does for a cold key). */
export async function takeRateLimitToken(db: Db, apiKeyId: string, limit: number): Promise<RateLimitResult> {
  const grant = await takeRateLimitTokens(db, apiKeyId, limit, 1);
  return {
    allowed: grant.granted === 1,
    limit,
    remaining: grant.remaining,
    resetSeconds: Math.ceil(grant.aheadSeconds),
    retryAfterSeconds: grant.granted === 1 ? 0 : Math.max(1, Math.ceil(grant.waitSeconds)),
  };
}
