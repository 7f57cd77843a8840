// The Comparison (api/presenters/comparison.ts): one prompt run on several models side by side, with
// each child generation in brief.

import { COMPARISON_STATUSES } from '../../../domain/comparison-status';
import { GENERATION_STATUSES } from '../../../domain/generation-status';
import { MODALITIES } from '../../../domain/modalities';
import { credits, enumOf, id, listOf, nullableString, nullableTimestamp, ref, timestamp } from './shared';

const ComparisonGeneration = {
  type: 'object',
  description: "One model's generation within a comparison; GET /v1/generations/{id} has all of it.",
  additionalProperties: false,
  required: ['id', 'model', 'status', 'charged_credits', 'refunded_credits', 'error_code', 'outputs'],
  properties: {
    id,
    model: { type: 'string' },
    status: enumOf(GENERATION_STATUSES),
    charged_credits: credits('Credits charged for this model'),
    refunded_credits: credits('Credits given back for this model'),
    error_code: nullableString,
    error_message: nullableString,
    outputs: { type: 'array', items: ref('GenerationOutput') },
    text: { type: 'string' },
    usage: { type: 'object', additionalProperties: { type: 'number' } },
  },
};

const Comparison = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'object',
    'status',
    'modality',
    'prompt',
    'params_shared',
    'models',
    'reserved_credits',
    'charged_credits',
    'refunded_credits',
    'deadline_at',
    'created_at',
    'finished_at',
    'generations',
  ],
  properties: {
    id,
    object: { const: 'comparison' },
    status: enumOf(COMPARISON_STATUSES, '`partial`: at least one model succeeded and at least one did not.'),
    modality: enumOf(MODALITIES),
    prompt: { type: 'string' },
    params_shared: { type: 'object', description: 'The parameters every model received.' },
    models: { type: 'array', items: { type: 'string' } },
    reserved_credits: credits('Credits held for all models together when the comparison was admitted'),
    charged_credits: credits('Credits charged, all models together'),
    refunded_credits: credits('Credits given back, all models together'),
    deadline_at: { ...nullableTimestamp, description: 'The `Cancel-After` deadline every model shares; null without one.' },
    created_at: timestamp,
    finished_at: nullableTimestamp,
    generations: { type: 'array', items: ref('ComparisonGeneration') },
  },
};

export const COMPARISON_SCHEMAS = { Comparison, ComparisonGeneration, ComparisonList: listOf('Comparison') };
