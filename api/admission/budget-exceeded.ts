import { creditsToUsd } from '../../domain/pricing';
import { ApiError } from '../errors';

/** 402 budget_exceeded: the request's reservation would take its key over its monthly budget. */
export function budgetExceeded(refusal: { budgetUsd: number | null; spentUsd: number }, neededCredits: number): ApiError {
  return new ApiError(
    'budget_exceeded',
    `This API key's monthly budget is ${refusal.budgetUsd ?? 0} USD and it has spent ${refusal.spentUsd} USD this month (reservations in flight included); this request needs ${creditsToUsd(neededCredits)} USD more. Nothing was reserved. Raise the key's monthly_budget_usd or wait for next month (UTC).`,
  );
}
