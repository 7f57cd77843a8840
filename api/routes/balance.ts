import { getWalletBalance } from '../../db/ledger';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { principalOf } from '../middleware/authenticate';
import { presentKeyBalance } from '../presenters/balance';
import { ROUTES } from '../route-table';

export function registerBalanceRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.getBalance, async (ctx) => {
    const principal = principalOf(ctx);
    ctx.body = presentKeyBalance(principal, await getWalletBalance(deps.knex, principal.organizationId));
  });
}
