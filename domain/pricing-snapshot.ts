import type { ModelEntry } from './catalog';
import { CATALOG_VERSION } from './catalog-version';
import { PLAN_MULTIPLIER_TENTHS, type Plan } from './plans';
import type { PricingSnapshot } from './pricing';

// A job's price snapshot, taken when the API admits it: the catalog entry's pricing and the plan's
// multiplier as used for its reservation. It is stored with the generation in the reservation's
// transaction and travels in the workflow's input, so the capture charges at this price even if
// the catalog changed while the job ran (activities/credits.ts).

export function pricingSnapshot(model: ModelEntry, plan: Plan): PricingSnapshot {
  return {
    unit: model.pricing.unit,
    credits_per_unit: model.pricing.creditsPerUnit,
    plan_multiplier: PLAN_MULTIPLIER_TENTHS[plan] / 10,
    catalog_version: CATALOG_VERSION,
  };
}
