// A catalog Model as GET /v1/models shows it (api/presenters/model.ts): what it does, what it costs,
// its limits, and whether it runs for the caller on this deployment.

import type { AvatarInput } from '../../../domain/avatars';
import { PRICING_UNITS, TIERS } from '../../../domain/catalog-types';
import { CAPABILITIES, MODALITIES, MODALITY_MODE } from '../../../domain/modalities';
import { REAL_PROVIDERS, SIMULATOR } from '../../../domain/providers';
import { enumOf, listOf } from './shared';

const PROVIDER_NAMES = [...REAL_PROVIDERS, SIMULATOR];
const AVATAR_INPUTS = ['text', 'lipsync', 'image_url'] as const satisfies readonly AvatarInput[];
const numbers = { type: 'array', items: { type: 'number' } };

/** The model's limits, each present only where the model has it. */
const limits = {
  type: 'object',
  additionalProperties: false,
  properties: {
    max_outputs: { type: 'integer' },
    min_duration_s: { type: 'number' },
    max_duration_s: { type: 'number' },
    durations_s: numbers,
    aspect_ratios: { type: 'array', items: { type: 'string' } },
    max_text_chars: { type: 'integer' },
    max_audio_s: { type: 'number' },
    context_tokens: { type: 'integer' },
    max_output_tokens: { type: 'integer' },
    scale_factors: numbers,
    max_input_mpx: { type: 'number' },
  },
};

const Model = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'slug', 'name', 'provider', 'modality', 'tier', 'capabilities', 'pricing', 'studio_plus', 'mode', 'limits', 'available', 'providers'],
  properties: {
    object: { const: 'model' },
    slug: { type: 'string', description: 'What to pass as `model`.' },
    name: { type: 'string' },
    provider: enumOf(PROVIDER_NAMES, 'The provider of its first route on this deployment.'),
    modality: enumOf(MODALITIES),
    tier: enumOf(TIERS),
    capabilities: { type: 'array', items: enumOf(CAPABILITIES) },
    pricing: {
      type: 'object',
      additionalProperties: false,
      required: ['unit', 'credits_per_unit'],
      properties: { unit: enumOf(PRICING_UNITS), credits_per_unit: { type: 'number', description: 'Credits per unit before the plan multiplier (1 credit = $0.001).' } },
    },
    studio_plus: { type: 'boolean', description: 'Only the studio and team plans may use it.' },
    mode: enumOf([...new Set(Object.values(MODALITY_MODE))], '`sync`: answered when done; `async`: 202, then poll or use webhooks.'),
    limits,
    animates_portrait: { type: 'boolean', description: 'Avatar models: whether it animates a portrait photo.' },
    inputs: { type: 'array', items: enumOf(AVATAR_INPUTS), description: 'Avatar models: the bodies it takes, and `image_url` where a portrait may be sent.' },
    available: { type: 'boolean', description: 'Whether it runs for the caller here (the simulator for test keys, else a provider with credentials).' },
    providers: { type: 'array', items: enumOf(PROVIDER_NAMES), description: 'The providers it would run on for the caller, in order.' },
  },
};

export const MODEL_SCHEMAS = { Model, ModelList: listOf('Model') };
