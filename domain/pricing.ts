import type { ModelEntry, PricingUnit } from './catalog';
import { PLAN_MULTIPLIER_TENTHS, type Plan } from './plans';

// Credit arithmetic (decisions §4): credits = ceil(units × credits_per_unit × plan multiplier).
//
// It is done exactly, in integers: a job's size is an integer amount of a base quantity (pixels,
// milliseconds, characters, tokens, items) with a fixed number of base amounts per pricing unit,
// prices are integer micro-credits, multipliers integer tenths. So the ceiling is never pushed up
// by binary noise (1.048576 × 25 × 1.6) nor pulled below the true cost by rounding it away.

/** 1 USD = 1,000 credits (decisions §4). */
export const CREDITS_PER_USD = 1000;

/** USD of whole credits: at most 3 decimals. */
export function creditsToUsd(credits: number): number {
  return credits / CREDITS_PER_USD;
}

/** A job's size: `amount` base quantities, `per` of which make one pricing unit. */
export interface BilledQuantity {
  amount: number;
  per: number;
}

/** What a job produces (an estimate before it runs, the real figures after). */
export interface JobMeasure {
  /** Images, songs or 3D models; video and avatar clips. Defaults to 1. */
  count?: number;
  widthPx?: number;
  heightPx?: number;
  durationMs?: number;
  characters?: number;
  outputTokens?: number;
}

const MICRO = 1_000_000;

export function billedQuantity(unit: PricingUnit, m: JobMeasure): BilledQuantity {
  const count = m.count ?? 1;
  const need = (value: number | undefined, what: string) => {
    if (value === undefined) throw new RangeError(`a price per ${unit} needs ${what}`);
    return value;
  };
  switch (unit) {
    case 'image':
    case 'song':
    case '3d_model':
      return { amount: count, per: 1 };
    case 'megapixel':
      return { amount: count * need(m.widthPx, 'a width') * need(m.heightPx, 'a height'), per: 1_000_000 };
    case 'second':
      return { amount: count * need(m.durationMs, 'a duration'), per: 1_000 };
    case 'minute':
      return { amount: count * need(m.durationMs, 'a duration'), per: 60_000 };
    case '1k_characters':
      return { amount: need(m.characters, 'a character count'), per: 1_000 };
    case '1m_output_tokens':
      return { amount: need(m.outputTokens, 'an output token count'), per: 1_000_000 };
  }
}

/** A catalog price in integer micro-credits; prices have at most six decimals. */
export function microCredits(creditsPerUnit: number): number {
  const micro = Math.round(creditsPerUnit * MICRO);
  if (!Number.isFinite(creditsPerUnit) || creditsPerUnit < 0 || Math.abs(micro - creditsPerUnit * MICRO) > 1e-3) {
    throw new RangeError(`a price must be a non-negative number with at most six decimals, not ${creditsPerUnit}`);
  }
  return micro;
}

/** Whole credits for a quantity at a price on a plan, rounded up once, after the multiplier. */
export function creditsFor(quantity: BilledQuantity, creditsPerUnit: number, plan: Plan): number {
  const { amount, per } = quantity;
  if (!Number.isSafeInteger(amount) || amount < 0 || !Number.isSafeInteger(per) || per <= 0) {
    throw new RangeError(`a billed quantity is a non-negative integer amount per a positive integer, not ${amount}/${per}`);
  }
  const numerator = BigInt(amount) * BigInt(microCredits(creditsPerUnit)) * BigInt(PLAN_MULTIPLIER_TENTHS[plan]);
  const denominator = BigInt(per) * BigInt(MICRO) * 10n;
  return Number((numerator + denominator - 1n) / denominator);
}

/** The credits a job of this model costs on this plan. */
export function estimateCredits(model: ModelEntry, measure: JobMeasure, plan: Plan): number {
  return creditsFor(billedQuantity(model.pricing.unit, measure), model.pricing.creditsPerUnit, plan);
}

export interface ImageJobShape {
  numOutputs: number;
  width: number;
  height: number;
}

export function estimateImageCredits(model: ModelEntry, job: ImageJobShape, plan: Plan): number {
  return estimateCredits(model, { count: job.numOutputs, widthPx: job.width, heightPx: job.height }, plan);
}
