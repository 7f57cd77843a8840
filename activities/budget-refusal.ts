import { isBudgetExceeded } from '../db/ledger';
import type { Repos } from '../db/repos';
import { creditsToUsd } from '../domain/pricing';
import type { Admission } from '../workflows/definitions';

/**
 * Runs an admission; when the ledger trigger refused it for a key's monthly budget (nothing was
 * written), answers with the refusal instead of the error.
 */
export async function budgetRefusal<T>(admit: () => Promise<T>, refusal: () => Promise<Admission>): Promise<T | Admission> {
  try {
    return await admit();
  } catch (err) {
    if (isBudgetExceeded(err)) return refusal();
    throw err;
  }
}

/** The refusal, with the key's budget and what it has spent in its current month, for the message. */
export async function refusedByBudget(repos: Repos, apiKeyId: string): Promise<Admission> {
  const budget = await repos.apiKeys.budgetOf(apiKeyId);
  return { admitted: false, code: 'budget_exceeded', budgetUsd: budget?.budgetUsd ?? null, spentUsd: creditsToUsd(budget?.spentCredits ?? 0) };
}
