import type Koa from 'koa';
import { effectiveRetention, outputsExpireAt, parseRetention, RETENTION_PATTERN } from '../../domain/output-retention';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { ApiDeps, AppContext, AppState } from '../context';
import { ApiError } from '../errors';

/**
 * A creation body's `retention` (issue 42 item 3), taken off the body before its modality's schema
 * reads it, so every creation endpoint (and comparisons) takes it the same way without each schema
 * and request builder repeating it, and it never lands in a job's recorded `params` (nor so in its
 * cache key). It runs after Idempotency-Key handling, which compares the whole body, `retention`
 * included. It leaves the outputs' expiry in `ctx.state.outputsExpireAt` (null: never): the
 * request's own retention, else the organization's `retention_days`, else the plan's
 * OUTPUT_RETENTION_DAYS, counted from now.
 */
export function outputRetention(deps: ApiDeps): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const principal = ctx.state.principal;
    if (!principal) throw new Error('outputRetention runs after authentication');
    const decided = await takeRetention(deps, principal, ctx.state.body);
    ctx.state.body = decided.body;
    ctx.state.outputsExpireAt = decided.outputsExpireAt;
    await next();
  };
}

/**
 * The body without `retention`, and when its outputs would expire (null: never); a bad `retention`
 * is refused (400, or 402 for `forever` outside Enterprise). Also run by a quote (api/admission/quote.ts),
 * so it refuses what the request itself would.
 */
export async function takeRetention(
  deps: Pick<ApiDeps, 'repos' | 'outputRetentionDays' | 'clock'>,
  principal: KeyPrincipal,
  body: unknown,
): Promise<{ body: unknown; outputsExpireAt: Date | null }> {
  let requested: string | undefined;
  let rest = body;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'retention' in body) {
    const { retention, ...others } = body as Record<string, unknown>;
    if (typeof retention !== 'string') throw new ApiError('validation_failed', `retention must be a string matching ${RETENTION_PATTERN}, such as '7d'.`, { param: 'retention' });
    requested = retention;
    rest = others;
  }
  const parsed = requested === undefined ? undefined : parseRetention(requested);
  if (parsed && !parsed.ok) throw new ApiError('validation_failed', `retention ${parsed.reason}.`, { param: 'retention' });
  const retention = parsed?.ok ? parsed.retention : undefined;
  if (retention?.kind === 'forever' && !principal.enterprise) {
    throw new ApiError('plan_upgrade_required', "retention 'forever' needs an Enterprise organization; ask for at most '365d'.", { param: 'retention' });
  }
  const organizationDays = retention ? null : await deps.repos.outputExpiries.organizationRetentionDays(principal.organizationId);
  return { body: rest, outputsExpireAt: outputsExpireAt(effectiveRetention(retention, organizationDays, deps.outputRetentionDays[principal.plan]), deps.clock()) };
}

/** The expiry outputRetention decided for this request's outputs (null: never). */
export function outputsExpiryOf(ctx: AppContext): Date | null {
  const expiry = ctx.state.outputsExpireAt;
  if (expiry === undefined) throw new Error(`${ctx.path} creates generations but its route does not run outputRetention`);
  return expiry;
}
