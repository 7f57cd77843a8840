import { getWalletBalance } from '../../db/ledger';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { principalOf } from '../middleware/authenticate';
import { presentKeyBalance, SANDBOX_BALANCE } from '../presenters/balance';
import { ROUTES } from '../route-table';

export function registerBalanceRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.getBalance, async (ctx) => {
    const principal = principalOf(ctx);
    // A test key never reads the live wallet (decisions §10): the sandbox has its own figures.
    const balance = principal.environment === 'live' ? await getWalletBalance(deps.knex, principal.organizationId) : SANDBOX_BALANCE;
    ctx.body = presentKeyBalance(principal, balance);
  });
}
