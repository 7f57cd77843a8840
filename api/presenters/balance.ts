import type { WalletBalance } from '../../db/ledger';
import type { Environment } from '../../domain/generation-status';
import { PLAN_MULTIPLIER_TENTHS, type Plan } from '../../domain/plans';
import { presentBalance } from './organization';

/**
 * `GET /v1/balance`: the operator's balance shape plus what a caller prices with. A test key sees
 * the live wallet's available credits as they stand and no reservations: the sandbox reserves and
 * spends nothing, so nothing of the wallet is held for it.
 */
export function presentKeyBalance(
  owner: { organizationId: string; plan: Plan; environment: Environment },
  wallet: WalletBalance,
) {
  const livemode = owner.environment === 'live';
  return {
    ...presentBalance(owner.organizationId, livemode ? wallet : { availableCredits: wallet.availableCredits, reservedCredits: 0 }),
    plan: owner.plan,
    multiplier: PLAN_MULTIPLIER_TENTHS[owner.plan] / 10,
    livemode,
  };
}
