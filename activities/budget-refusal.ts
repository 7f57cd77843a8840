import { isBudgetExceeded } from '../db/ledger';
import type { Repos } from '../db/repos';
import { budgetPeriodOf, spentInRequestMonth } from '../domain/budget-period';
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

/**
 * The refusal, with the key's budget and what it has spent in the request's month, for the message
 * (a spend row of an earlier month is not this month's spend). Workflows started before requests
 * carried their month use today's.
 */
export async function refusedByBudget(repos: Repos, apiKeyId: string, budgetPeriod: string | undefined): Promise<Admission> {
  const budget = await repos.apiKeys.budgetOf(apiKeyId);
  const spent = budget ? spentInRequestMonth(budget, budgetPeriod ?? budgetPeriodOf(new Date())) : 0;
  return { admitted: false, code: 'budget_exceeded', budgetUsd: budget?.budgetUsd ?? null, spentUsd: creditsToUsd(spent) };
}
