import { performance } from 'node:perf_hooks';
import type { Db } from '../../db/knex';
import { emissionInterval, returnRateLimitTokens, takeRateLimitTokens, type RateLimitResult } from '../../db/rate-limits';
import type { Logger } from '../../lib/logger';

// The per-key bucket lives in Postgres and is shared by every API process. Asking Postgres on
// every request costs a round trip, so a process leases a batch of tokens from the shared bucket
// and admits from memory until the batch is spent. A token is taken from the shared bucket before
// it is admitted, so all processes together never admit more than the bucket allows.
//
// Lease sizes adapt: a key starts with leases of one token (exact headers, no tokens parked in a
// process), and a lease spent before it expires doubles the next one, up to 1/20 of the limit
// (three seconds' refill). The next lease is fetched in the background when half of the current
// one is spent. Tokens still unspent when a lease expires go back to the shared bucket.

const LEASE_TTL_MS = 2_000;
const MAX_LEASE_FRACTION = 1 / 20;

export interface RateLimiter {
  take(apiKeyId: string, limit: number): Promise<RateLimitResult>;
  /** Returns every unspent leased token to the shared bucket. */
  close(): Promise<void>;
}

interface KeyState {
  limit: number;
  interval: number;
  tokens: number;
  expiresAt: number;
  leaseSize: number;
  spentInLease: number;
  /** Tokens left in the shared bucket when the last lease was granted. */
  sharedRemaining: number;
  refusedUntil: number;
  inflight?: Promise<void>;
}

export function createRateLimiter(db: Db, logger: Logger): RateLimiter {
  const states = new Map<string, KeyState>();

  function giveBack(apiKeyId: string, state: KeyState): void {
    if (state.tokens <= 0) return;
    const count = state.tokens;
    state.tokens = 0;
    returnRateLimitTokens(db, apiKeyId, state.interval, count).catch((err: Error) => logger.warn('rate limit tokens not returned', { apiKeyId, count, error: err.message }));
  }

  /** Doubles while leases are spent in time (a prefetch means half is spent already), else shrinks to what was used. */
  function nextLeaseSize(state: KeyState, prefetch: boolean): number {
    const cap = Math.max(1, Math.floor(state.limit * MAX_LEASE_FRACTION));
    const keepingUp = prefetch || state.spentInLease >= state.leaseSize;
    return keepingUp ? Math.min(cap, state.leaseSize * 2) : Math.max(1, Math.min(cap, state.spentInLease));
  }

  async function lease(apiKeyId: string, state: KeyState, want: number): Promise<void> {
    const grant = await takeRateLimitTokens(db, apiKeyId, state.limit, want);
    const now = performance.now();
    state.sharedRemaining = grant.remaining;
    if (grant.granted === 0) {
      state.refusedUntil = now + grant.waitSeconds * 1000;
      return;
    }
    state.tokens += grant.granted;
    state.expiresAt = now + LEASE_TTL_MS;
    state.leaseSize = grant.granted;
    state.spentInLease = 0;
  }

  function admitted(state: KeyState): RateLimitResult {
    state.tokens -= 1;
    state.spentInLease += 1;
    const remaining = Math.min(state.limit, state.sharedRemaining + state.tokens);
    return {
      allowed: true,
      limit: state.limit,
      remaining,
      resetSeconds: Math.ceil((state.limit - remaining) * state.interval - 1e-9),
      retryAfterSeconds: 0,
    };
  }

  function refused(state: KeyState, now: number): RateLimitResult {
    const wait = Math.max(0, state.refusedUntil - now) / 1000;
    return {
      allowed: false,
      limit: state.limit,
      remaining: 0,
      resetSeconds: Math.ceil(state.limit * state.interval),
      retryAfterSeconds: Math.max(1, Math.ceil(wait)),
    };
  }

  async function take(apiKeyId: string, limit: number): Promise<RateLimitResult> {
    let state = states.get(apiKeyId);
    if (!state || state.limit !== limit) {
      if (state) giveBack(apiKeyId, state);
      state = { limit, interval: emissionInterval(limit), tokens: 0, expiresAt: 0, leaseSize: 1, spentInLease: 0, sharedRemaining: 0, refusedUntil: 0 };
      states.set(apiKeyId, state);
    }
    for (;;) {
      const now = performance.now();
      if (state.tokens > 0 && now < state.expiresAt) {
        const result = admitted(state);
        if (state.leaseSize > 1 && state.tokens <= state.leaseSize / 2 && !state.inflight) {
          const current = state;
          current.inflight = lease(apiKeyId, current, nextLeaseSize(current, true))
            .catch((err: Error) => logger.warn('rate limit lease failed', { apiKeyId, error: err.message }))
            .finally(() => (current.inflight = undefined));
        }
        return result;
      }
      if (state.inflight) {
        await state.inflight;
        continue;
      }
      if (now < state.refusedUntil) return refused(state, now);
      if (state.tokens > 0) giveBack(apiKeyId, state);
      const current = state;
      current.inflight = lease(apiKeyId, current, nextLeaseSize(current, false)).finally(() => (current.inflight = undefined));
      await current.inflight;
      if (current.tokens === 0) return refused(current, performance.now());
    }
  }

  // Expired leases hand their unspent tokens back; idle keys are forgotten.
  const sweeper = setInterval(() => {
    const now = performance.now();
    for (const [apiKeyId, state] of states) {
      if (state.inflight || now < state.expiresAt) continue;
      giveBack(apiKeyId, state);
      if (now >= state.refusedUntil) states.delete(apiKeyId);
    }
  }, LEASE_TTL_MS);
  sweeper.unref();

  return {
    take,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...states.values()].map((s) => s.inflight));
      await Promise.all([...states.entries()].filter(([, s]) => s.tokens > 0).map(([id, s]) => returnRateLimitTokens(db, id, s.interval, s.tokens)));
      states.clear();
    },
  };
}
