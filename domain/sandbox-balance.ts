// The sandbox's balance (decisions §4, §10): `sk_test_` keys are never charged, so what they see in
// `GET /v1/balance` is not a wallet but a fixed allowance, the same for every organization, that
// test requests never decrease and that never reveals the live wallet.

/** Credits a test key's `GET /v1/balance` shows as available: 1,000 USD at 1,000 credits per USD. */
export const SANDBOX_AVAILABLE_CREDITS = 1_000_000;
