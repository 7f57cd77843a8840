// The Generation (api/presenters/generation.ts), its outputs and provider attempts, and the Chat
// completion (api/presenters/chat-completion.ts) that POST /v1/chat answers with when it finished.

import type { GenerationRow, ProviderAttempt } from '../../../db/repos/generations';
import type { ChatCompletionStatus } from '../../presenters/chat-completion';
import { GENERATION_STATUSES } from '../../../domain/generation-status';
import { MODALITIES } from '../../../domain/modalities';
import { PRICING_UNITS } from '../../../domain/catalog';
import { credits, enumOf, id, listOf, nullableString, nullableTimestamp, ref, timestamp } from './shared';

const ATTEMPT_OUTCOMES = ['succeeded', 'failed', 'canceled'] as const satisfies readonly ProviderAttempt['outcome'][];
const ERROR_SOURCES = ['provider', 'gateway'] as const satisfies readonly NonNullable<GenerationRow['error_source']>[];

/** Token counts and the like, as the provider reported them (e.g. chat's `input_tokens`, `output_tokens`). */
// Written by activities/credits.ts when a provider reports usage (chat's tokens).
const usage = {
  type: 'object',
  description: 'What the provider counted.',
  additionalProperties: false,
  properties: {
    input_tokens: { type: 'integer', minimum: 0 },
    output_tokens: { type: 'integer', minimum: 0 },
    output_tokens_estimated: {
      type: 'boolean',
      const: true,
      description: 'Present when the provider reported no output count: `output_tokens` was counted with a tokenizer and charged on that.',
    },
  },
};

const GenerationOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'url', 'mime', 'expires_at', 'deleted_at'],
  properties: {
    id,
    url: {
      type: 'string',
      format: 'uri',
      description:
        'A signed URL to download the file; it expires, so fetch the generation again for a fresh one. Past `expires_at`, or once deleted, it answers 410 `output_expired`.',
    },
    mime: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    duration_s: { type: 'string', description: 'The length in seconds, as a decimal string (e.g. "12.5").' },
    expires_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: "When the file is deleted (the request's `retention`, else the organization's default); null: kept until deleted (`forever`, or made before retention existed).",
    },
    deleted_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the file was deleted (expiry, or DELETE /v1/generations/{id}/outputs); the generation record stays.',
    },
  },
};

// Written by the admission (domain/pricing-snapshot.ts) with the reservation; charged at by the capture.
const PricingSnapshot = {
  type: 'object',
  description: 'The price a generation was admitted at and is charged at, whatever the catalog says later.',
  additionalProperties: false,
  required: ['unit', 'credits_per_unit', 'plan_multiplier', 'catalog_version'],
  properties: {
    unit: enumOf(PRICING_UNITS, "The catalog entry's pricing unit."),
    credits_per_unit: { type: 'number', description: "The catalog entry's credits per unit, before the plan multiplier." },
    plan_multiplier: { type: 'number', description: "The plan's multiplier (1, 1.3 or 1.6)." },
    catalog_version: { type: 'string', description: 'The catalog the price came from: a hash of its content, so any catalog change gives a new one.' },
  },
};

const ProviderAttemptSchema = {
  type: 'object',
  description: 'One provider call that ended (provenance).',
  additionalProperties: false,
  required: ['provider', 'model', 'outcome', 'duration_ms'],
  properties: {
    provider: { type: 'string' },
    model: { type: 'string', description: "The provider's own model name." },
    outcome: enumOf(ATTEMPT_OUTCOMES, '`canceled`: the generation was cancelled while the call ran.'),
    error_code: { type: 'string' },
    duration_ms: { type: 'integer' },
  },
};

const Generation = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'object',
    'status',
    'modality',
    'model',
    'api_key_id',
    'prompt',
    'params',
    'reserved_credits',
    'charged_credits',
    'refunded_credits',
    'cache_hit',
    'pricing',
    'outputs',
    'provider',
    'provider_model',
    'attempts',
    'deadline_at',
    'created_at',
    'finished_at',
  ],
  properties: {
    id,
    object: { const: 'generation' },
    status: enumOf(GENERATION_STATUSES),
    modality: enumOf(MODALITIES),
    model: { type: 'string' },
    api_key_id: { type: 'string', description: 'The API key that created it.' },
    prompt: { type: 'string' },
    params: { type: 'object', description: 'The request parameters besides `model` and `prompt`, as accepted.' },
    reserved_credits: credits('Credits held when the generation was admitted'),
    charged_credits: credits('Credits charged; at most what was reserved'),
    refunded_credits: credits('Credits given back; reserved = charged + refunded once the generation is finished'),
    cache_hit: { type: 'boolean', description: 'Served from an earlier identical generation, for 0 credits.' },
    pricing: {
      oneOf: [ref('PricingSnapshot'), { type: 'null' }],
      description: 'The price it was admitted at and is charged at; null for generations from before price snapshots were recorded.',
    },
    comparison_id: { type: 'string', description: 'The comparison this generation belongs to, if any.' },
    outputs: { type: 'array', items: ref('GenerationOutput') },
    provider: { ...nullableString, description: 'The provider that served it (provenance); null unless succeeded.' },
    provider_model: { ...nullableString, description: "The provider's model that served it; null unless succeeded." },
    attempts: { type: 'array', items: ref('ProviderAttempt'), description: 'Every provider call that ended, in order.' },
    error_code: { ...nullableString, description: 'Why it failed (failed generations), or `deadline_exceeded` on one its `Cancel-After` deadline canceled.' },
    error_message: nullableString,
    error_source: enumOf(ERROR_SOURCES, '`provider`, or `gateway` when the failure was ours.'),
    retryable: { type: 'boolean', description: 'Whether sending the same request again may succeed.' },
    usage,
    text: { type: 'string', description: "Chat's answer, or a transcription's text." },
    deadline_at: { ...nullableTimestamp, description: 'When its `Cancel-After` deadline passes (the job is then canceled); null without one.' },
    created_at: timestamp,
    finished_at: nullableTimestamp,
  },
};

const ChatCompletion = {
  type: 'object',
  description: 'A finished chat (succeeded or failed); one still running or cancelled is answered as its Generation.',
  additionalProperties: false,
  required: ['id', 'object', 'status', 'modality', 'model', 'message', 'reserved_credits', 'charged_credits', 'refunded_credits', 'created_at', 'finished_at'],
  properties: {
    id,
    object: { const: 'chat.completion' },
    status: enumOf(['succeeded', 'failed'] satisfies ChatCompletionStatus[]),
    modality: { const: 'chat' },
    model: { type: 'string' },
    message: {
      type: 'object',
      additionalProperties: false,
      required: ['role', 'content'],
      properties: { role: { const: 'assistant' }, content: { type: 'string' } },
    },
    usage,
    reserved_credits: credits('Credits held when the chat was admitted'),
    charged_credits: credits('Credits charged'),
    refunded_credits: credits('Credits given back'),
    error_code: nullableString,
    error_message: nullableString,
    created_at: timestamp,
    finished_at: nullableTimestamp,
  },
};

export const GENERATION_SCHEMAS = {
  Generation,
  GenerationOutput,
  ProviderAttempt: ProviderAttemptSchema,
  PricingSnapshot,
  GenerationList: listOf('Generation'),
  ChatCompletion,
};
