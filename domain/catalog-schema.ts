import { ASPECT_RATIOS } from './image-sizes';
import { PRICING_UNITS, UNITS_BY_MODALITY, type ModelEntry, type ModelLimits } from './catalog';
import { REAL_PROVIDERS } from './providers';
import { CAPABILITIES, CAPABILITY_MODALITIES, MODALITIES, type Modality } from './modalities';

// What a catalog entry must look like. The JSON schema checks each field on its own (any JSON
// schema validator can run it); `modelEntryProblems` checks what ties fields together.

const positiveInt = { type: 'integer', minimum: 1 } as const;
const shortString = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const MODEL_ENTRY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'name', 'routes', 'modality', 'tier', 'capabilities', 'pricing', 'studioPlus', 'limits', 'priceSource'],
  properties: {
    slug: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]*$', maxLength: 64 },
    name: shortString,
    routes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['provider', 'model'],
        properties: { provider: { type: 'string', enum: [...REAL_PROVIDERS] }, model: shortString },
      },
    },
    modality: { type: 'string', enum: [...MODALITIES] },
    tier: { type: 'string', enum: ['fast', 'standard', 'pro'] },
    capabilities: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...CAPABILITIES] } },
    pricing: {
      type: 'object',
      additionalProperties: false,
      required: ['unit', 'creditsPerUnit'],
      properties: {
        unit: { type: 'string', enum: [...PRICING_UNITS] },
        creditsPerUnit: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 },
      },
    },
    studioPlus: { type: 'boolean' },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxOutputs: { type: 'integer', minimum: 1, maximum: 4 },
        minDurationS: positiveInt,
        maxDurationS: positiveInt,
        durationsS: { type: 'array', minItems: 1, uniqueItems: true, items: positiveInt },
        aspectRatios: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^[0-9]+:[0-9]+$' } },
        maxTextChars: positiveInt,
        maxAudioS: positiveInt,
        contextTokens: positiveInt,
        maxOutputTokens: positiveInt,
        scaleFactors: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'integer', enum: [2, 4] } },
        maxInputMpx: { type: 'number', exclusiveMinimum: 0 },
      },
    },
    priceSource: { type: 'string', minLength: 1, maxLength: 300 },
    animatesPortrait: { type: 'boolean' },
  },
} as const;

/** Spec §8: music is requested in 15..180 seconds. */
export const MUSIC_DURATION_RANGE_S = { min: 15, max: 180 } as const;

/** The limits that mean something for each modality; any other limit on an entry is a mistake. */
export const LIMITS_BY_MODALITY: Record<Modality, readonly (keyof ModelLimits)[]> = {
  image: ['maxOutputs', 'aspectRatios'],
  video: ['minDurationS', 'maxDurationS', 'durationsS', 'aspectRatios'],
  voice: ['maxTextChars', 'maxAudioS'],
  music: ['minDurationS', 'maxDurationS'],
  avatar: ['minDurationS', 'maxDurationS', 'maxTextChars', 'maxAudioS'],
  chat: ['contextTokens', 'maxOutputTokens'],
  '3d': [],
  upscale: ['scaleFactors', 'maxInputMpx'],
};

/** Cross-field rules for one entry; an empty list means the entry is coherent. */
export function modelEntryProblems(entry: ModelEntry): string[] {
  const problems: string[] = [];
  const { modality, limits } = entry;
  for (const capability of entry.capabilities) {
    if (!CAPABILITY_MODALITIES[capability].includes(modality)) problems.push(`capability ${capability} is not a ${modality} capability`);
  }
  if (!UNITS_BY_MODALITY[modality].includes(entry.pricing.unit)) problems.push(`${modality} is not priced per ${entry.pricing.unit}`);
  const price = entry.pricing.creditsPerUnit;
  if (!Number.isFinite(price) || price <= 0) problems.push(`creditsPerUnit ${price} is not a positive finite number`);
  if (entry.priceSource.trim() === '') problems.push('priceSource is empty');

  for (const key of Object.keys(limits) as (keyof ModelLimits)[]) {
    if (limits[key] === undefined || LIMITS_BY_MODALITY[modality].includes(key)) continue;
    problems.push(`limit ${key} does not apply to ${modality}`);
  }
  const { minDurationS: min, maxDurationS: max, durationsS } = limits;
  if (min !== undefined && max !== undefined && min > max) problems.push(`minDurationS ${min} > maxDurationS ${max}`);
  if (durationsS && ((min !== undefined && Math.min(...durationsS) < min) || (max !== undefined && Math.max(...durationsS) > max))) {
    problems.push('durationsS fall outside minDurationS..maxDurationS');
  }
  if (modality === 'music') {
    const lowest = min ?? MUSIC_DURATION_RANGE_S.min;
    const highest = max ?? MUSIC_DURATION_RANGE_S.max;
    if (lowest < MUSIC_DURATION_RANGE_S.min || highest > MUSIC_DURATION_RANGE_S.max) {
      problems.push(`music durations ${lowest}..${highest} leave ${MUSIC_DURATION_RANGE_S.min}..${MUSIC_DURATION_RANGE_S.max} s`);
    }
  }
  if (modality === 'image' && limits.aspectRatios) {
    const known: readonly string[] = ASPECT_RATIOS;
    if (!limits.aspectRatios.includes('1:1') || limits.aspectRatios.some((r) => !known.includes(r))) {
      problems.push(`image aspect ratios must include 1:1 and be among ${ASPECT_RATIOS.join(', ')}`);
    }
  }
  problems.push(...avatarProblems(entry));
  if (limits.contextTokens !== undefined && limits.maxOutputTokens !== undefined && limits.maxOutputTokens > limits.contextTokens) {
    problems.push('maxOutputTokens exceeds contextTokens');
  }
  return problems;
}

/**
 * Avatar models (decisions §10): the bodies a model takes follow from its capabilities
 * (`text_to_video`: text, `lipsync`: lipsync; an avatar model has one or both, being its
 * modality's only capabilities), each with the limit that body is checked against; only avatar
 * models animate a portrait.
 */
function avatarProblems(entry: ModelEntry): string[] {
  if (entry.modality !== 'avatar') return entry.animatesPortrait === undefined ? [] : ['animatesPortrait applies to avatar models only'];
  const problems: string[] = [];
  if (entry.capabilities.includes('text_to_video') && entry.limits.maxTextChars === undefined) problems.push('a text avatar model needs maxTextChars');
  if (entry.capabilities.includes('lipsync') && entry.limits.maxAudioS === undefined) problems.push('a lipsync model needs maxAudioS');
  return problems;
}

/** Rules across the catalog: slugs are unique. Returns the entries' own problems too, by slug. */
export function catalogProblems(entries: readonly ModelEntry[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.slug)) problems.push(`duplicate slug ${entry.slug}`);
    seen.add(entry.slug);
    problems.push(...modelEntryProblems(entry).map((problem) => `${entry.slug}: ${problem}`));
  }
  return problems;
}
