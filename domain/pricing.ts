import type { ModelEntry } from './catalog';
import { PLAN_MULTIPLIER_TENTHS, type Plan } from './plans';

// Credit arithmetic (decisions §4): estimate = ceil(units × credits_per_unit × plan multiplier).
// Products are rounded to six decimals before the ceiling so that binary noise
// (1.048576 × 25 × 1.6) can never add a credit the exact product would not.

const PRECISION = 1e6;

export function priceCredits(units: number, creditsPerUnit: number, plan: Plan): number {
  if (!(units >= 0) || !(creditsPerUnit >= 0)) throw new RangeError('units and price must be >= 0');
  const exact = (units * creditsPerUnit * PLAN_MULTIPLIER_TENTHS[plan]) / 10;
  return Math.ceil(Math.round(exact * PRECISION) / PRECISION);
}

export interface ImageJobShape {
  numOutputs: number;
  width: number;
  height: number;
}

/** Billed units of an image job in the model's own pricing unit. */
export function imageUnits(model: ModelEntry, job: ImageJobShape): number {
  switch (model.pricing.unit) {
    case 'image':
      return job.numOutputs;
    case 'megapixel':
      return (job.numOutputs * job.width * job.height) / 1_000_000;
    default:
      throw new Error(`image model ${model.slug} is priced per ${model.pricing.unit}`);
  }
}

export function estimateImageCredits(model: ModelEntry, job: ImageJobShape, plan: Plan): number {
  return priceCredits(imageUnits(model, job), model.pricing.creditsPerUnit, plan);
}
