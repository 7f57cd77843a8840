import type { Knex } from 'knex';
import * as ledger from '../../db/ledger';
import type { Repos } from '../../db/repos';
import type { Environment } from '../../domain/generation-status';
import { generateApiKeySecret } from '../../domain/api-key-secret';
import { newId } from '../../lib/ids';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { completeInTransaction } from '../middleware/idempotency';
import { presentApiKey } from '../presenters/api-key';
import { presentBalance, presentOrganization, presentUser } from '../presenters/organization';
import { ROUTES } from '../route-table';
import { parseAdjustCredits, parseCreateOrganization, parseUpdateOrganization, type CreateOrganizationRequest } from '../schemas/admin';

const CHECK_VIOLATION = '23514';

/** The operator bootstrap API (decisions §3), behind ADMIN_TOKEN. */
export function registerAdminRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.adminCreateOrganization, async (ctx) => {
    const body = parseCreateOrganization(ctx.state.body);
    const created = await deps.knex.transaction((trx) => createOrganization(deps.repos, trx, body));
    ctx.status = 201;
    ctx.body = created;
  });

  defineRoute(router, deps, ROUTES.adminGetOrganization, async (ctx) => {
    const id = ctx.params.id ?? '';
    const org = await deps.repos.organizations.findById(id);
    if (!org) throw notFound('organization', id);
    ctx.body = { ...presentOrganization(org), balance: presentBalance(org.id, await ledger.getWalletBalance(deps.knex, id)) };
  });

  defineRoute(router, deps, ROUTES.adminUpdateOrganization, async (ctx) => {
    const id = ctx.params.id ?? '';
    const changes = parseUpdateOrganization(ctx.state.body);
    const org = await deps.repos.organizations.update(id, changes);
    if (!org) throw notFound('organization', id);
    // Plan, pause and rate limit hold in every API process once this answers (principal-cache.ts).
    await deps.principals.settle();
    ctx.body = { ...presentOrganization(org), balance: presentBalance(org.id, await ledger.getWalletBalance(deps.knex, id)) };
  });

  defineRoute(router, deps, ROUTES.adminAdjustCredits, async (ctx) => {
    const id = ctx.params.id ?? '';
    const body = parseAdjustCredits(ctx.state.body);
    if (!(await deps.repos.organizations.findById(id))) throw notFound('organization', id);
    try {
      // With an Idempotency-Key, the money moves in the same transaction that remembers the answer:
      // a retry replays it or, if this attempt died before committing, moves the money itself.
      ctx.body = await deps.knex.transaction(async (trx) => {
        await ledger.adjustCredits(trx, { organizationId: id, amount: body.amount, reason: body.reason });
        const balance = presentBalance(id, await ledger.getWalletBalance(trx, id));
        await completeInTransaction(ctx, deps, trx, { status: 200, body: balance });
        return balance;
      });
    } catch (err) {
      if ((err as { code?: string }).code !== CHECK_VIOLATION) throw err;
      throw new ApiError('insufficient_credits', 'Insufficient credits: this adjustment would take the available balance below zero.', {
        param: 'amount',
      });
    }
  });
}

/** Organization, wallet, owner user, and one live and one test owner key, in one transaction. */
async function createOrganization(repos: Repos, trx: Knex.Transaction, body: CreateOrganizationRequest) {
  const org = await repos.organizations.create({ id: newId('org'), name: body.name, plan: body.plan, enterprise: body.enterprise ?? false }, trx);
  const owner = await repos.users.create({ id: newId('usr'), organization_id: org.id, name: `${body.name} owner`, role: 'owner' }, trx);
  const keys = [];
  for (const environment of ['live', 'test'] as Environment[]) {
    const { secret, prefix, secretHash } = generateApiKeySecret(environment);
    const key = await repos.apiKeys.create(
      { id: newId('key'), organization_id: org.id, user_id: owner.id, name: `Owner ${environment} key`, environment, prefix, secret_hash: secretHash },
      trx,
    );
    keys.push({ ...presentApiKey(key, owner.role, 0), secret });
  }
  if (body.credits) {
    await ledger.adjustCredits(trx, { organizationId: org.id, amount: body.credits, reason: 'initial credits' });
  }
  return {
    ...presentOrganization(org),
    owner: presentUser(owner),
    api_keys: keys,
    balance: presentBalance(org.id, await ledger.getWalletBalance(trx, org.id)),
  };
}
