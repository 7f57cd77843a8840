import type { KeyPrincipal } from '../../db/repos/api-keys';
import { USER_EMAIL_UNIQUE_INDEX, type UserRow } from '../../db/repos/users';
import { newId } from '../../lib/ids';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentUser } from '../presenters/user';
import { assertMayGrant, assertMayManage } from '../guards/role-guards';
import { ROUTES } from '../route-table';
import { parseListQuery } from '../schemas/list-query';
import { parseCreateUser, parseUpdateUser } from '../schemas/users';

// /v1/users (decisions §3): the people of an organization and their roles, so that every role is
// usable without SQL. Users belong to the organization, not to an environment: a test key may list
// them, but only a live key may change them, since a change reaches live keys too.

const UNIQUE_VIOLATION = '23505';

function assertLiveKey(principal: KeyPrincipal): void {
  if (principal.environment === 'live') return;
  throw new ApiError('insufficient_role', 'Users belong to the whole organization, live keys included, so a test key may list them but not change them; use a live key.');
}

const lastOwner = (user: UserRow, change: string) =>
  new ApiError('last_owner', `User ${user.id} is the organization's last active owner and cannot be ${change}; make another user owner first.`, { param: 'id' });

const isDuplicateEmail = (err: unknown) => (err as { code?: string }).code === UNIQUE_VIOLATION && (err as { constraint?: string }).constraint === USER_EMAIL_UNIQUE_INDEX;

export function registerUserRoutes(router: AppRouter, deps: ApiDeps): void {
  const users = deps.repos.users;

  defineRoute(router, deps, ROUTES.listUsers, async (ctx) => {
    const principal = principalOf(ctx);
    const query = parseListQuery(ctx.query);
    let startingAfter;
    if (query.starting_after) {
      startingAfter = await users.findInOrganization(query.starting_after, principal.organizationId);
      if (!startingAfter) throw new ApiError('resource_not_found', `No such user: '${query.starting_after}'.`, { param: 'starting_after' });
    }
    const page = await users.listPage(principal.organizationId, { limit: Number(query.limit ?? 20), startingAfter });
    ctx.body = { object: 'list', data: page.rows.map(presentUser), has_more: page.hasMore };
  });

  defineRoute(router, deps, ROUTES.createUser, async (ctx) => {
    const principal = principalOf(ctx);
    assertLiveKey(principal);
    const body = parseCreateUser(ctx.state.body);
    assertMayGrant(principal, body.role);
    try {
      const user = await users.create({
        id: newId('usr'),
        organization_id: principal.organizationId,
        name: body.name ?? body.email,
        email: body.email,
        role: body.role,
      });
      ctx.status = 201;
      ctx.body = presentUser(user);
    } catch (err) {
      if (!isDuplicateEmail(err)) throw err;
      throw new ApiError('resource_already_exists', `This organization already has an active user with the email ${body.email}.`, {
        param: 'email',
      });
    }
  });

  defineRoute(router, deps, ROUTES.updateUser, async (ctx) => {
    const principal = principalOf(ctx);
    assertLiveKey(principal);
    const id = ctx.params.id ?? '';
    const changes = parseUpdateUser(ctx.state.body);
    if (changes.role) assertMayGrant(principal, changes.role);
    const { before, after } = await deps.knex.transaction(async (trx) => {
      await users.lockOrganizationUsers(principal.organizationId, trx);
      const user = await users.findInOrganization(id, principal.organizationId, trx);
      if (!user) throw notFound('user', id);
      assertMayManage(principal, { role: user.role, describe: `User ${id}` });
      if (user.deactivated_at) {
        throw new ApiError('user_deactivated', `User ${id} is deactivated and cannot be changed; add the person again with POST /v1/users.`, {
          param: 'id',
        });
      }
      if (user.role === 'owner' && changes.role && changes.role !== 'owner' && (await users.countActiveOwners(principal.organizationId, trx)) <= 1) {
        throw lastOwner(user, 'given another role');
      }
      return { before: user, after: await users.update(id, changes, trx) };
    });
    // A new role holds for the user's keys in every API process once this answers (principal-cache.ts).
    if (after.role !== before.role) await deps.principals.settle();
    ctx.body = presentUser(after);
  });

  defineRoute(router, deps, ROUTES.deactivateUser, async (ctx) => {
    const principal = principalOf(ctx);
    assertLiveKey(principal);
    const id = ctx.params.id ?? '';
    const { before, after } = await deps.knex.transaction(async (trx) => {
      await users.lockOrganizationUsers(principal.organizationId, trx);
      const user = await users.findInOrganization(id, principal.organizationId, trx);
      if (!user) throw notFound('user', id);
      assertMayManage(principal, { role: user.role, describe: `User ${id}` });
      if (user.deactivated_at) return { before: user, after: user };
      if (user.role === 'owner' && (await users.countActiveOwners(principal.organizationId, trx)) <= 1) {
        throw lastOwner(user, 'deactivated');
      }
      return { before: user, after: await users.deactivate(id, trx) };
    });
    // Deactivation is immediate like revocation: once this answers, no API process accepts the
    // user's keys (principal-cache.ts). Deactivating oneself is allowed, so this may be the caller.
    if (!before.deactivated_at) await deps.principals.settle();
    ctx.body = presentUser(after);
  });
}
