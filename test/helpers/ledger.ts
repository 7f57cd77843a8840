import assert from 'node:assert/strict';
import { getWalletBalance, sumLedger, type WalletBalance } from '../../db/ledger';
import { stack } from './stack';

/** The money invariant: the wallet equals the sum of its ledger rows, and nothing is negative. */
export async function assertLedgerBalanced(organizationId: string): Promise<WalletBalance> {
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
