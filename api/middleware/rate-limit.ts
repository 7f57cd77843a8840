import type Koa from 'koa';
import type { ApiDeps, AppState } from '../context';
import { metrics } from '../../observability/metrics';
import { ApiError } from '../errors';
import { principalOf } from './authenticate';

/**
 * Per-key token bucket shared by every API process (decisions §10). Every authenticated response
 * carries RateLimit-Limit/Remaining/Reset; a refused one is 429 with Retry-After.
 */
export function rateLimit(deps: Pick<ApiDeps, 'rateLimiter' | 'rateLimitPerMinute'>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const principal = principalOf(ctx);
    const limit = principal.rateLimitPerMinute ?? deps.rateLimitPerMinute;
    const result = await deps.rateLimiter.take(principal.apiKeyId, limit);
    ctx.set({
      'RateLimit-Limit': String(result.limit),
      'RateLimit-Remaining': String(result.remaining),
      'RateLimit-Reset': String(result.resetSeconds),
    });
    if (!result.allowed) {
      // Which limit: the organization's own, or the server's RATE_LIMIT_PER_MINUTE.
      metrics.rateLimitRefusals.inc({ limit: principal.rateLimitPerMinute === null ? 'server_default' : 'organization' });
      throw new ApiError('rate_limited', `Too many requests: this key may make ${limit} per minute. Retry after ${result.retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      });
    }
    await next();
  };
}
