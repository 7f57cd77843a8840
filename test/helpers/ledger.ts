import assert from 'node:assert/strict';
import { getWalletBalance, sumLedger, type WalletBalance } from '../../db/ledger';
import { assertMoneyInvariants } from './money-invariants';
import { stack } from './stack';

/**
 * The money invariants of one organization (test/helpers/money-invariants.ts): its wallet equals
 * the sum of its ledger, nothing is negative, every generation's ledger rows match its status, and
 * no generation is stranded by a closed workflow. Returns the wallet. Call it after every test that
 * moves money; a generation may still be running (its workflow is open).
 */
export async function assertLedgerBalanced(organizationId: string): Promise<WalletBalance> {
  return assertMoneyInvariants(organizationId);
}

/**
 * Only the ledger statements' own invariant: the wallet equals the sum of its ledger rows, and
 * nothing is negative. For tests that drive db/ledger.ts directly, whose generation rows no
 * workflow ever runs or finishes; every other test wants assertLedgerBalanced.
 */
export async function assertWalletMatchesLedger(organizationId: string): Promise<WalletBalance> {
  const wallet = await getWalletBalance(stack().knex, organizationId);
  const ledger = await sumLedger(stack().knex, organizationId);
  assert.deepEqual(wallet, ledger, 'wallet must equal the sum of its ledger');
  assert.ok(wallet.availableCredits >= 0 && wallet.reservedCredits >= 0, 'balances never go negative');
  return wallet;
}

export async function ledgerKinds(generationId: string): Promise<string[]> {
  const rows = await stack().knex('ledger_entries').where({ generation_id: generationId }).orderBy('id');
  return rows.map((r: { kind: string }) => r.kind);
}
