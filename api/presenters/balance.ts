import type { WalletBalance } from '../../db/ledger';
import type { Environment } from '../../domain/generation-status';
import { PLAN_MULTIPLIER_TENTHS, type Plan } from '../../domain/plans';
import { SANDBOX_AVAILABLE_CREDITS } from '../../domain/sandbox-balance';
import { presentBalance } from './organization';

/** What a test key sees instead of the wallet: the sandbox allowance, nothing reserved. */
export const SANDBOX_BALANCE: WalletBalance = { availableCredits: SANDBOX_AVAILABLE_CREDITS, reservedCredits: 0 };

/**
 * `GET /v1/balance`: the operator's balance shape plus what a caller prices with. A live key sees
 * the live wallet; a test key sees the sandbox (`SANDBOX_BALANCE`), never the live figures, while
 * `plan` and `multiplier` stay the organization's, since the sandbox prices as live does.
 */
export function presentKeyBalance(owner: { organizationId: string; plan: Plan; environment: Environment }, balance: WalletBalance) {
  return {
    ...presentBalance(owner.organizationId, balance),
    plan: owner.plan,
    multiplier: PLAN_MULTIPLIER_TENTHS[owner.plan] / 10,
    livemode: owner.environment === 'live',
  };
}
