import type { Knex } from 'knex';
import { admitComparison } from '../db/admit-comparison';
import { getWalletBalance } from '../db/ledger';
import type { Repos } from '../db/repos';
import type { ComparisonRow } from '../db/repos/comparisons';
import type { Admission, ComparisonInput } from '../workflows/definitions';
import { budgetRefusal, refusedByBudget } from './budget-refusal';
import { failPermanently } from './permanent-failures';
import { countComparisonReserved } from './job-metrics';

// A comparison's own money step (its admission) and its verdict. Each child's capture or refund is
// the generation's own (activities/credits.ts).

export function createComparisonActivities(deps: { knex: Knex; repos: Repos }) {
  const { knex, repos } = deps;
  return {
    /** Records the comparison and every child and reserves the sum of their estimates, or nothing. */
    async reserveComparison(input: ComparisonInput): Promise<Admission> {
      return failPermanently(async () => {
        const admitted = await budgetRefusal(
          () =>
            admitComparison(
              knex,
              {
                id: input.comparisonId,
                organization_id: input.organizationId,
                api_key_id: input.apiKeyId,
                environment: input.environment,
                modality: input.modality,
                prompt: input.prompt,
                params_shared: input.paramsShared,
                admit_by: input.admitBy ?? null,
                budget_period: input.budgetPeriod ?? null,
                deadline_at: input.deadlineAt ?? null,
              },
              input.children.map((child) => ({
                id: child.generationId,
                model: child.model,
                prompt: child.prompt,
                params: child.params,
                reserved_credits: child.estimatedCredits,
                pricing: child.pricing ?? null,
              })),
              (credits) => countComparisonReserved(input.modality, input.environment, credits),
            ),
          () => refusedByBudget(repos, input.apiKeyId, input.budgetPeriod),
        );
        if (typeof admitted === 'object') return admitted;
        if (admitted) return { admitted: true };
        if ((await repos.admissionClaims.refusalReason(input.comparisonId, input.admitBy)) === 'admission_timeout') {
          return { admitted: false, code: 'admission_timeout' };
        }
        const balance = await getWalletBalance(knex, input.organizationId);
        return { admitted: false, code: 'insufficient_credits', availableCredits: balance.availableCredits };
      });
    },

    /**
     * A comparison's child, at its start: admitted if its comparison's admission recorded it and it
     * is still open. A child its comparison already refunded (a cancel that raced its start) does
     * not run: its provider would work for a result nobody pays for.
     */
    async confirmChildAdmission(generationId: string): Promise<Admission> {
      const row = await repos.generations.findById(generationId);
      return row && (row.status === 'queued' || row.status === 'running') ? { admitted: true } : { admitted: false, code: 'admission_timeout' };
    },

    /** Records the verdict and its event once every child is terminal; returns the status after. */
    async finishComparison(comparisonId: string): Promise<ComparisonRow['status'] | undefined> {
      return failPermanently(() => repos.comparisons.finish(comparisonId));
    },
  };
}
