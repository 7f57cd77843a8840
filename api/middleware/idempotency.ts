import type Koa from 'koa';
import type { Db } from '../../db/knex';
import { canonicalJson, sha256Hex } from '../../lib/canonical-json';
import { newId, type IdPrefix } from '../../lib/ids';
import type { ApiDeps, AppContext, AppState } from '../context';
import type { IdempotencyState } from '../idempotency-state';
import { ApiError } from '../errors';
import { longestRequestMs } from '../admission/request-budget';
import type { RouteSpec } from '../route-table';
import { idempotencyScope } from './idempotency-scope';

// Decisions §9: `Idempotency-Key` on every credit-consuming POST (and the operator's credit
// adjustment). Within 24 h the same key with the same endpoint and body replays the first answer
// (`Idempotent-Replayed: true`); another endpoint or body is 422; the same request still running is
// 409. Validation failures are not remembered. What is remembered: every 2xx, and 402
// insufficient_credits (the request ran and was refused by the wallet). A 5xx releases the key so a
// retry takes over with the same resource id, which can only attach to the job the first attempt
// may have started. Each claim has an owner token: a request whose claim was taken over (its lock
// ran out) settles nothing, and only logs that it lost the claim.

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

type Deps = Pick<ApiDeps, 'repos' | 'clock' | 'syncTimeoutMs' | 'admissionTimeoutMs'>;

export function idempotency(deps: Deps, route: RouteSpec, resourcePrefix: IdPrefix | null): Koa.Middleware<AppState> {
  const endpoint = `${route.method} ${String(route.path)}`;
  // A retry may take over a claim once the request holding it cannot possibly still be running.
  const lockMs = longestRequestMs(deps);
  return async (ctx, next) => {
    // Absent is "no key"; sent but empty is a malformed key (decisions §9: 1..255 characters).
    if (ctx.headers['idempotency-key'] === undefined) return next();
    const key = ctx.get('Idempotency-Key');
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', { param: 'Idempotency-Key' });
    }
    const now = deps.clock();
    const claim = await deps.repos.idempotencyKeys.claim({
      ...(await idempotencyScope(ctx, deps, route.access, key)),
      endpoint,
      requestHash: requestHashOf(ctx),
      newResourceId: resourcePrefix && newId(resourcePrefix),
      now,
      expiredBefore: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS),
      lockedUntil: new Date(now.getTime() + lockMs),
    });
    switch (claim.kind) {
      case 'replay':
        ctx.status = claim.status;
        ctx.body = claim.body;
        ctx.set('Idempotent-Replayed', 'true');
        return;
      case 'mismatch':
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different endpoint or request body. Use a new key for a new request.');
      case 'in_progress':
        throw new ApiError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed. Retry after it has finished to get its result.');
    }
    const state: IdempotencyState = { resourceId: claim.resourceId, takenOver: claim.takenOver, held: claim.held, completed: false };
    ctx.state.idempotency = state;
    const repo = deps.repos.idempotencyKeys;
    const settled = (action: string) => (held: boolean) => {
      if (!held) ctx.state.logger.warn('idempotency claim lost: a retry took the key over, so this request left it alone', { key, endpoint, action });
    };
    try {
      await next();
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'insufficient_credits' || err.code === 'budget_exceeded')) {
        await repo.complete(state.held, { status: err.status, body: err.toBody(ctx.state.requestId) }).then(settled('complete'));
      } else if (err instanceof ApiError && err.status < 500) {
        await repo.forget(state.held).then(settled('forget'));
      } else {
        await repo.release(state.held, deps.clock()).then(settled('release'));
      }
      throw err;
    }
    if (!state.completed) await repo.complete(state.held, { status: ctx.status, body: ctx.body }).then(settled('complete'));
  };
}

/**
 * Remembers this request's answer inside `trx`, the transaction that does its work, so the work and
 * the answer commit together: a request that dies in between leaves neither, and its retry does the
 * work exactly once. If a retry has taken the key over meanwhile, the work must not commit: 409.
 * Does nothing for a request without an Idempotency-Key.
 */
export async function completeInTransaction(ctx: AppContext, deps: Pick<ApiDeps, 'repos'>, trx: Db, response: { status: number; body: unknown }): Promise<void> {
  const state = ctx.state.idempotency;
  if (!state) return;
  if (!(await deps.repos.idempotencyKeys.complete(state.held, response, trx))) {
    throw new ApiError(
      'idempotency_in_progress',
      'This request took so long that a retry with the same Idempotency-Key took it over; this one changed nothing. Retry to get the result.',
    );
  }
  state.completed = true;
}

/**
 * What a replay must repeat: the body and, when sent, `Cancel-After` (issue 42), so that the same
 * key with another deadline is 422 idempotency_key_reused like another body. Without the header the
 * hash is the body's alone, as keys stored before deadlines were hashed.
 */
function requestHashOf(ctx: AppContext): string {
  const cancelAfter = ctx.headers['cancel-after'];
  return sha256Hex(canonicalJson(cancelAfter === undefined ? ctx.state.body : { body: ctx.state.body, cancel_after: String(cancelAfter) }));
}
