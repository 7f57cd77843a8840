import type { ModelEntry, PricingUnit } from './catalog';
import { PLAN_MULTIPLIER_TENTHS, type Plan } from './plans';
import { simulatedOnly } from './provider-routing';
import type { ProviderRoute } from './providers';

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
  return creditsAtMultiplier(quantity, creditsPerUnit, PLAN_MULTIPLIER_TENTHS[plan]);
}

function creditsAtMultiplier(quantity: BilledQuantity, creditsPerUnit: number, multiplierTenths: number): number {
  const { amount, per } = quantity;
  if (!Number.isSafeInteger(amount) || amount < 0 || !Number.isSafeInteger(per) || per <= 0) {
    throw new RangeError(`a billed quantity is a non-negative integer amount per a positive integer, not ${amount}/${per}`);
  }
  if (!Number.isSafeInteger(multiplierTenths) || multiplierTenths <= 0) throw new RangeError(`a plan multiplier is a positive number of tenths, not ${multiplierTenths}`);
  const numerator = BigInt(amount) * BigInt(microCredits(creditsPerUnit)) * BigInt(multiplierTenths);
  const denominator = BigInt(per) * BigInt(MICRO) * 10n;
  return Number((numerator + denominator - 1n) / denominator);
}

/**
 * A price as a job was admitted at (its Generation's `pricing`): the catalog entry's unit and price
 * and the plan's multiplier, and the catalog's version (domain/catalog-version.ts). Snake case: it is
 * stored and shown as is.
 */
export interface PricingSnapshot {
  unit: PricingUnit;
  credits_per_unit: number;
  /** The plan's multiplier (1, 1.3, 1.6): a whole number of tenths. */
  plan_multiplier: number;
  catalog_version: string;
}

/** The price a snapshot (or, for jobs admitted before snapshots, the live catalog) prices at. */
export type UnitPrice = Pick<PricingSnapshot, 'unit' | 'credits_per_unit' | 'plan_multiplier'>;

/** Whole credits for a quantity at a recorded price: `creditsFor`'s arithmetic with the snapshot's multiplier. */
export function creditsAtPrice(quantity: BilledQuantity, price: UnitPrice): number {
  return creditsAtMultiplier(quantity, price.credits_per_unit, Math.round(price.plan_multiplier * 10));
}

/** A catalog entry's price on a plan, as a snapshot would record it (without the catalog's version). */
export function unitPriceOf(model: ModelEntry, plan: Plan): UnitPrice {
  return { unit: model.pricing.unit, credits_per_unit: model.pricing.creditsPerUnit, plan_multiplier: PLAN_MULTIPLIER_TENTHS[plan] / 10 };
}

/** The credits a job of this model costs on this plan. */
export function estimateCredits(model: ModelEntry, measure: JobMeasure, plan: Plan): number {
  return creditsFor(billedQuantity(model.pricing.unit, measure), model.pricing.creditsPerUnit, plan);
}

/** A request's price as its builder hands it on: the credits, and the measure they were computed from (a quote shows it). */
export function pricedJob(model: ModelEntry, measure: JobMeasure, plan: Plan): { estimatedCredits: number; measure: JobMeasure } {
  return { estimatedCredits: estimateCredits(model, measure, plan), measure };
}

/** The figures a price was computed from, as a quote shows them: the catalog's unit and price, the job's size in that unit, the plan's multiplier. */
export interface PricingInputs {
  unit: PricingUnit;
  /** The job's size in `unit` (a decimal: 1.048576 megapixels, 2.5 seconds). */
  units: number;
  credits_per_unit: number;
  plan: Plan;
  plan_multiplier: number;
}

export function pricingInputs(model: ModelEntry, measure: JobMeasure, plan: Plan): PricingInputs {
  const { amount, per } = billedQuantity(model.pricing.unit, measure);
  return { unit: model.pricing.unit, units: amount / per, credits_per_unit: model.pricing.creditsPerUnit, plan, plan_multiplier: PLAN_MULTIPLIER_TENTHS[plan] / 10 };
}

/**
 * What a request reserves when it is admitted, given the routes it will run on: its estimate, or 0
 * when it can only produce simulated output. That is the sandbox's rule (decisions §4) and the
 * simulated mode's for a live key (decisions §7): simulated output is never paid for. The one place
 * admission's price is decided; capture charges at most what was reserved.
 */
export function admissionCredits(estimate: number, routes: readonly ProviderRoute[]): number {
  return simulatedOnly(routes) ? 0 : estimate;
}

export interface ImageJobShape {
  numOutputs: number;
  width: number;
  height: number;
}

export function estimateImageCredits(model: ModelEntry, job: ImageJobShape, plan: Plan): number {
  return estimateCredits(model, { count: job.numOutputs, widthPx: job.width, heightPx: job.height }, plan);
}

/** A delivered output as billing reads it: the figures measured from the stored file. */
export interface DeliveredOutput {
  width?: number;
  height?: number;
  /** Seconds, a decimal string as stored on the output. */
  durationS?: string;
}

/**
 * What a job delivered, in its pricing unit (decisions §4: success captures the actual cost).
 * Counted units count the files (fal drops images its safety checker flags); megapixels add up
 * every file's pixels; seconds add up every file's duration, as read from the files.
 * Units priced on the request itself (characters, a transcription's input minutes) and chat's
 * tokens (charged on the provider's usage report) are not measured here: undefined, and the
 * estimate stands. So does a delivery that lacks a figure its unit needs.
 */
export function deliveredQuantity(unit: PricingUnit, outputs: readonly DeliveredOutput[]): BilledQuantity | undefined {
  if (outputs.length === 0) return undefined;
  switch (unit) {
    case 'image':
    case 'song':
    case '3d_model':
      return { amount: outputs.length, per: 1 };
    case 'megapixel': {
      let pixels = 0;
      for (const { width, height } of outputs) {
        if (!isPositiveInteger(width) || !isPositiveInteger(height)) return undefined;
        pixels += width * height;
      }
      return { amount: pixels, per: 1_000_000 };
    }
    case 'second': {
      let ms = 0;
      for (const { durationS } of outputs) {
        const seconds = Number(durationS);
        if (durationS === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
        ms += Math.round(seconds * 1_000);
      }
      return { amount: ms, per: 1_000 };
    }
    case 'minute':
    case '1k_characters':
    case '1m_output_tokens':
      return undefined;
  }
}

/** The credits a delivery costs at a recorded price, or undefined where the estimate stands. */
export function deliveredCredits(price: UnitPrice, outputs: readonly DeliveredOutput[]): number | undefined {
  const quantity = deliveredQuantity(price.unit, outputs);
  return quantity && creditsAtPrice(quantity, price);
}

function isPositiveInteger(value: number | undefined): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
