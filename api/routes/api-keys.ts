import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { Environment } from '../../domain/generation-status';
import { generateApiKeySecret } from '../../domain/api-key-secret';
import { newId } from '../../lib/ids';
import { formatIpRange, parseIpRange } from '../../lib/ip-ranges';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentApiKey, presentCurrentApiKey } from '../presenters/api-key';
import { budgetPeriodOf } from '../../domain/budget-period';
import { assertMayGrant, assertMayManage } from '../guards/role-guards';
import { ROUTES } from '../route-table';
import { parseCreateApiKey, parseUpdateApiKey } from '../schemas/api-keys';
import { parseListQuery } from '../schemas/list-query';

// /v1/api-keys (decisions §3). Keys are resources of one environment like every other: a live key
// lists and changes live keys and a test key test keys, and ids of the other world answer 404.
// Creation is the one crossing: a live key may also create test keys (a sandbox key is no risk to
// production), but a test key may never create a live one.

function assertMayCreateIn(principal: KeyPrincipal, environment: Environment): void {
  if (environment === principal.environment || principal.environment === 'live') return;
  throw new ApiError('insufficient_role', 'A test key creates test keys only; use a live key to create a live key.', { param: 'environment' });
}

/** A scoped key may only hand out a non-empty subset of its own scopes: no escalation. */
function assertNoEscalation(principal: KeyPrincipal, scopes: string[]): void {
  if (principal.scopes.length === 0) return;
  if (scopes.length > 0 && scopes.every((scope) => principal.scopes.includes(scope))) return;
  throw new ApiError('insufficient_role', `This key is limited to the scopes ${principal.scopes.join(', ')}; a key it creates must list some of those and no others.`, {
    param: 'scopes',
  });
}

/** Validates and normalizes an allowlist; setting one is an Enterprise feature, clearing one is not. */
function parseAllowlist(principal: KeyPrincipal, entries: string[]): string[] {
  if (entries.length > 0 && !principal.enterprise) {
    throw new ApiError('plan_upgrade_required', 'IP allowlists are an Enterprise feature; ask your operator to enable Enterprise.', {
      param: 'ipAllowlist',
    });
  }
  return entries.map((entry, i) => {
    const range = parseIpRange(entry);
    if (!range) {
      throw new ApiError('validation_failed', `Invalid ipAllowlist.${i}: "${entry}" is not a CIDR range such as 203.0.113.0/24 or 2001:db8::/32.`, {
        param: `ipAllowlist.${i}`,
      });
    }
    return formatIpRange(range);
  });
}

export function registerApiKeyRoutes(router: AppRouter, deps: ApiDeps): void {
  const keys = deps.repos.apiKeys;

  const spentThisMonth = async (id: string) => (await keys.spentIn([id], budgetPeriodOf(deps.clock()))).get(id) ?? 0;

  defineRoute(router, deps, ROUTES.listApiKeys, async (ctx) => {
    const principal = principalOf(ctx);
    const query = parseListQuery(ctx.query);
    let startingAfter;
    if (query.starting_after) {
      startingAfter = await keys.findOwned(query.starting_after, principal);
      if (!startingAfter) throw new ApiError('resource_not_found', `No such API key: '${query.starting_after}'.`, { param: 'starting_after' });
    }
    const page = await keys.listPage(principal, { limit: Number(query.limit ?? 20), startingAfter });
    const spent = await keys.spentIn(
      page.rows.map((k) => k.id),
      budgetPeriodOf(deps.clock()),
    );
    ctx.body = { object: 'list', data: page.rows.map((k) => presentApiKey(k, k.effective_role, spent.get(k.id) ?? 0)), has_more: page.hasMore };
  });

  defineRoute(router, deps, ROUTES.getCurrentApiKey, async (ctx) => {
    const principal = principalOf(ctx);
    const key = await keys.findOwned(principal.apiKeyId, principal);
    // The key authenticated this very request, so it exists unless revoked in between.
    if (!key) throw notFound('API key', principal.apiKeyId);
    ctx.body = presentCurrentApiKey(key, principal, await spentThisMonth(key.id));
  });

  defineRoute(router, deps, ROUTES.createApiKey, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseCreateApiKey(ctx.state.body);
    const environment = body.environment ?? principal.environment;
    assertMayCreateIn(principal, environment);
    const scopes = body.scopes ?? [];
    assertNoEscalation(principal, scopes);
    if (body.role) assertMayGrant(principal, body.role);
    const { secret, prefix, secretHash } = generateApiKeySecret(environment);
    const key = await keys.create({
      id: newId('key'),
      organization_id: principal.organizationId,
      // The creator's user: the key never outranks that user, now or after a demotion.
      user_id: principal.userId,
      name: body.name,
      environment,
      prefix,
      secret_hash: secretHash,
      scopes,
      monthly_budget_usd: body.monthly_budget_usd ?? null,
      // Without a role the key inherits its creator's cap, so a capped key cannot mint an uncapped one.
      role: body.role ?? principal.keyRole,
    });
    ctx.status = 201;
    ctx.body = { ...presentApiKey(key, body.role ?? principal.role, 0), secret };
  });

  defineRoute(router, deps, ROUTES.updateApiKey, async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.id ?? '';
    const existing = await keys.findOwned(id, principal);
    if (!existing) throw notFound('API key', id);
    assertMayManage(principal, { role: existing.effective_role, describe: `API key ${id}` });
    const { ipAllowlist, ...changes } = parseUpdateApiKey(ctx.state.body);
    const ip_allowlist = ipAllowlist === undefined ? undefined : parseAllowlist(principal, ipAllowlist);
    const updated = await keys.update(id, { ...changes, ...(ip_allowlist && { ip_allowlist }) });
    // An allowlist change must hold in every API process before the caller relies on it.
    await deps.principals.settle();
    ctx.body = presentApiKey(updated, existing.effective_role, await spentThisMonth(id));
  });

  defineRoute(router, deps, ROUTES.revokeApiKey, async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.id ?? '';
    const existing = await keys.findOwned(id, principal);
    if (!existing) throw notFound('API key', id);
    assertMayManage(principal, { role: existing.effective_role, describe: `API key ${id}` });
    const revoked = await keys.revoke(id);
    // Revocation is immediate: once this answers, no API process accepts the key (principal-cache.ts).
    await deps.principals.settle();
    ctx.body = presentApiKey(revoked, existing.effective_role, await spentThisMonth(id));
  });
}
