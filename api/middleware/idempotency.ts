import type Koa from 'koa';
import { canonicalJson, sha256Hex } from '../../lib/canonical-json';
import { newId } from '../../lib/ids';
import type { ApiDeps, AppState } from '../context';
import { ApiError } from '../errors';
import type { RouteSpec } from '../route-table';
import { principalOf } from './authenticate';

// Decisions §9: `Idempotency-Key` on every credit-consuming POST. Within 24 h the same key with the
// same endpoint and body replays the first answer (`Idempotent-Replayed: true`); another endpoint
// or body is 422; the same request still running is 409. Validation failures are not remembered.
// What is remembered: every 2xx, and 402 insufficient_credits (the request ran and was refused by
// the wallet). A 5xx releases the key so a retry takes over with the same generation id, which can
// only attach to the job the first attempt may have started.

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface IdempotencyState {
  /** The generation id this request must use. */
  resourceId: string;
  /** A retry of an abandoned request: the job may already exist. */
  takenOver: boolean;
}

export function idempotency(deps: Pick<ApiDeps, 'repos' | 'clock' | 'syncTimeoutMs'>, route: RouteSpec, resourcePrefix: 'gen'): Koa.Middleware<AppState> {
  const endpoint = `${route.method} ${String(route.path)}`;
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (!key) return next();
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', { param: 'Idempotency-Key' });
    }
    const principal = principalOf(ctx);
    const scope = { organizationId: principal.organizationId, environment: principal.environment, key };
    const now = deps.clock();
    const claim = await deps.repos.idempotencyKeys.claim({
      ...scope,
      endpoint,
      requestHash: sha256Hex(canonicalJson(ctx.state.body)),
      newResourceId: newId(resourcePrefix),
      now,
      expiredBefore: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS),
      // Long enough for the slowest sync answer; after that a crashed request's key can be retried.
      lockedUntil: new Date(now.getTime() + deps.syncTimeoutMs + 30_000),
    });
    switch (claim.kind) {
      case 'replay':
        ctx.status = claim.status;
        ctx.body = claim.body;
        ctx.set('Idempotent-Replayed', 'true');
        return;
      case 'mismatch':
        throw new ApiError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different endpoint or request body. Use a new key for a new request.',
        );
      case 'in_progress':
        throw new ApiError(
          'idempotency_in_progress',
          'A request with this Idempotency-Key is still being processed. Retry after it has finished to get its result.',
        );
      case 'claimed':
        ctx.state.idempotency = { resourceId: claim.resourceId, takenOver: claim.takenOver };
    }
    try {
      await next();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'insufficient_credits') {
        await deps.repos.idempotencyKeys.complete(scope, { status: err.status, body: err.toBody(ctx.state.requestId) });
      } else if (err instanceof ApiError && err.status < 500) {
        await deps.repos.idempotencyKeys.forget(scope);
      } else {
        await deps.repos.idempotencyKeys.release(scope, deps.clock());
      }
      throw err;
    }
    await deps.repos.idempotencyKeys.complete(scope, { status: ctx.status, body: ctx.body });
  };
}
