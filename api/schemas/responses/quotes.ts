// A quote (POST /v1/quotes, api/admission/quote.ts): what a creation request would reserve.

import { PRICING_UNITS } from '../../../domain/catalog';
import { PLANS } from '../../../domain/plans';
import { QUOTABLE_ENDPOINTS } from '../quotes';
import { credits, enumOf, ref } from './shared';

const usd = (of: string) => ({ type: 'number', description: `${of} in US dollars (1,000 credits = 1 USD).` });

const PricingInputs = {
  type: 'object',
  description: 'The figures the credits were computed from: ceil(units × credits_per_unit × plan_multiplier).',
  additionalProperties: false,
  required: ['unit', 'units', 'credits_per_unit', 'plan', 'plan_multiplier'],
  properties: {
    unit: enumOf(PRICING_UNITS, "The model's pricing unit (the catalog's)."),
    units: { type: 'number', description: "The request's size in that unit (e.g. 1.048576 megapixels, 6 seconds)." },
    credits_per_unit: { type: 'number', description: "The catalog's price per unit, before the plan multiplier." },
    plan: enumOf(PLANS),
    plan_multiplier: { type: 'number' },
  },
};

const QuoteGeneration = {
  type: 'object',
  description: 'One generation the request would create (a comparison: one per model, in `models` order).',
  additionalProperties: false,
  required: ['model', 'credits', 'usd', 'simulated', 'pricing'],
  properties: {
    model: { type: 'string' },
    credits: credits('What its admission would reserve'),
    usd: usd('credits'),
    simulated: { type: 'boolean', description: 'Only simulated output can come (a test key, or simulated mode): reserved at 0 whatever the price.' },
    pricing: ref('PricingInputs'),
  },
};

const Quote = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'endpoint', 'credits', 'usd', 'max_credits', 'available_credits', 'affordable', 'generations'],
  properties: {
    object: { const: 'quote' },
    endpoint: enumOf(QUOTABLE_ENDPOINTS),
    credits: credits('What the request would reserve: the sum of its generations'),
    usd: usd('credits'),
    max_credits: { type: ['integer', 'null'], description: "The body's max_credits, if it carried one (the quote is refused 402 max_cost_exceeded over it)." },
    available_credits: credits("The organization's wallet now"),
    affordable: { type: 'boolean', description: 'Whether the wallet covers `credits` now; the real request is refused 402 insufficient_credits when it does not.' },
    generations: { type: 'array', items: ref('QuoteGeneration') },
  },
};

export const QUOTE_SCHEMAS = { Quote, QuoteGeneration, PricingInputs };
