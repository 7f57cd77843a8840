import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { findModel, listModels, modelMode, UNITS_BY_MODALITY, type ModelEntry } from '../../domain/catalog';
import { catalogProblems, MODEL_ENTRY_SCHEMA, modelEntryProblems } from '../../domain/catalog-schema';
import { CAPABILITIES, capabilitiesFor, MODALITIES, type Capability, type Modality } from '../../domain/modalities';

const models = listModels();
const validate = new Ajv({ strict: true, allErrors: true }).compile(MODEL_ENTRY_SCHEMA);

/** The capability (any one of) that makes a model belong to its modality at all. */
const NATURAL: Record<Modality, Capability[]> = {
  image: ['text_to_image'],
  video: ['text_to_video', 'image_to_video'],
  voice: ['text_to_voice', 'voice_clone', 'transcription'],
  music: ['text_to_music'],
  avatar: ['text_to_video', 'lipsync'],
  chat: ['text_to_text'],
  '3d': ['text_to_3d', 'image_to_3d'],
  upscale: ['image_upscale'],
};

function entry(slug: string): ModelEntry {
  const model = findModel(slug);
  assert.ok(model, `no model ${slug}`);
  return model;
}

/** A copy of a real entry with some fields replaced, to show the rules reject it. */
function broken(slug: string, change: Partial<ModelEntry>): ModelEntry {
  return { ...structuredClone(entry(slug)), ...change };
}

describe('model catalog', () => {
  it('validates every entry against the strict JSON schema', () => {
    for (const model of models) assert.ok(validate(model), `${model.slug}: ${JSON.stringify(validate.errors)}`);
  });

  it('has unique slugs and entries whose fields agree with each other', () => {
    assert.deepEqual(catalogProblems(models), []);
    assert.equal(new Set(models.map((m) => m.slug)).size, models.length);
  });

  it('holds about sixty models, at least five in every modality', () => {
    assert.ok(models.length >= 55 && models.length <= 70, `${models.length} models`);
    for (const modality of MODALITIES) {
      const count = models.filter((m) => m.modality === modality).length;
      assert.ok(count >= 5, `${modality} has ${count} models`);
    }
  });

  it("gives every model its modality's natural capability and only capabilities of its modality", () => {
    for (const model of models) {
      assert.ok(
        model.capabilities.some((c) => NATURAL[model.modality].includes(c)),
        model.slug,
      );
      for (const capability of model.capabilities) assert.ok(capabilitiesFor(model.modality).includes(capability), `${model.slug}: ${capability}`);
    }
  });

  it('offers every capability of the spec through at least one model', () => {
    for (const capability of CAPABILITIES)
      assert.ok(
        models.some((m) => m.capabilities.includes(capability)),
        capability,
      );
    const videos = models.filter((m) => m.modality === 'video');
    assert.ok(videos.filter((m) => m.capabilities.includes('image_to_video')).length >= 2);
    assert.ok(videos.some((m) => m.capabilities.join() === 'text_to_video'));
  });

  it('prices every model in a unit its modality is billed in, at a positive finite price with a source', () => {
    for (const model of models) {
      assert.ok(UNITS_BY_MODALITY[model.modality].includes(model.pricing.unit), model.slug);
      assert.ok(Number.isFinite(model.pricing.creditsPerUnit) && model.pricing.creditsPerUnit > 0, model.slug);
      assert.ok(model.priceSource.trim().length > 0, model.slug);
    }
    assert.deepEqual(UNITS_BY_MODALITY.upscale, ['megapixel']);
    assert.deepEqual(UNITS_BY_MODALITY.chat, ['1m_output_tokens']);
  });

  it('marks a handful of premium models Studio+, across several modalities', () => {
    const premium = models.filter((m) => m.studioPlus);
    assert.ok(premium.length >= 8 && premium.length <= 12, `${premium.length} Studio+ models`);
    assert.ok(new Set(premium.map((m) => m.modality)).size >= 5);
  });

  it('keeps the first image models with their prices, tiers and capabilities', () => {
    assert.deepEqual(
      ['flux-schnell', 'flux-dev', 'flux-1.1-pro', 'flux-1.1-pro-ultra', 'imagen-4'].map((slug) => {
        const { tier, pricing, studioPlus, capabilities } = entry(slug);
        return { slug, tier, pricing, studioPlus, capabilities };
      }),
      [
        { slug: 'flux-schnell', tier: 'fast', pricing: { unit: 'megapixel', creditsPerUnit: 3 }, studioPlus: false, capabilities: ['text_to_image'] },
        { slug: 'flux-dev', tier: 'standard', pricing: { unit: 'megapixel', creditsPerUnit: 25 }, studioPlus: false, capabilities: ['text_to_image', 'image_to_image'] },
        { slug: 'flux-1.1-pro', tier: 'pro', pricing: { unit: 'megapixel', creditsPerUnit: 40 }, studioPlus: false, capabilities: ['text_to_image'] },
        { slug: 'flux-1.1-pro-ultra', tier: 'pro', pricing: { unit: 'image', creditsPerUnit: 60 }, studioPlus: true, capabilities: ['text_to_image', 'image_to_image'] },
        { slug: 'imagen-4', tier: 'standard', pricing: { unit: 'image', creditsPerUnit: 40 }, studioPlus: false, capabilities: ['text_to_image'] },
      ],
    );
  });

  it('answers sync for image, voice and chat models and async for the rest (spec §1)', () => {
    for (const model of models) assert.equal(modelMode(model), ['image', 'voice', 'chat'].includes(model.modality) ? 'sync' : 'async', model.slug);
  });

  it('gives each modality the limits its requests are checked against', () => {
    for (const model of models) {
      const { limits } = model;
      if (model.modality === 'video') assert.ok(limits.durationsS || limits.maxDurationS, model.slug);
      if (model.modality === 'music') assert.ok((limits.minDurationS ?? 0) >= 15 && (limits.maxDurationS ?? Infinity) <= 180, model.slug);
      if (model.modality === 'avatar') assert.ok(limits.maxDurationS, model.slug);
      if (model.modality === 'chat') assert.ok(limits.contextTokens && limits.maxOutputTokens, model.slug);
      if (model.modality === 'upscale') assert.ok(limits.scaleFactors && limits.maxInputMpx, model.slug);
      if (model.modality === 'voice') {
        const transcribes = model.capabilities.includes('transcription');
        assert.ok(transcribes ? limits.maxAudioS : limits.maxTextChars, model.slug);
      }
    }
    assert.deepEqual(entry('kling-2.1-master').limits.durationsS, [5, 10]);
  });

  it('finds a model by its slug only', () => {
    assert.equal(findModel('flux-dev')?.name, 'FLUX.1 [dev]');
    assert.equal(findModel('FLUX-DEV'), undefined);
    assert.equal(findModel('no-such-model'), undefined);
  });

  describe('the entry rules', () => {
    it('reject entries the schema does not describe', () => {
      const cases: [string, unknown][] = [
        ['a slug with capitals and spaces', broken('flux-dev', { slug: 'Flux Dev' })],
        ['an unknown provider', { ...broken('flux-dev', {}), provider: 'midjourney' }],
        ['no capabilities', broken('flux-dev', { capabilities: [] })],
        ['a repeated capability', broken('flux-dev', { capabilities: ['text_to_image', 'text_to_image'] })],
        ['a capability outside the spec', { ...broken('flux-dev', {}), capabilities: ['text_to_hologram'] }],
        ['an unknown unit', { ...broken('flux-dev', {}), pricing: { unit: 'token', creditsPerUnit: 1 } }],
        ['a zero price', broken('flux-dev', { pricing: { unit: 'megapixel', creditsPerUnit: 0 } })],
        ['five outputs', broken('flux-dev', { limits: { maxOutputs: 5 } })],
        ['a 3x scale factor', broken('real-esrgan', { limits: { scaleFactors: [2, 3] } })],
        ['an unknown field', { ...broken('flux-dev', {}), price: 25 }],
        ['an unknown limit', broken('flux-dev', { limits: { maxOutputs: 4, fps: 24 } as ModelEntry['limits'] })],
      ];
      for (const [what, candidate] of cases) assert.equal(validate(candidate), false, what);
    });

    it('reject entries whose fields contradict each other', () => {
      const cases: [string, ModelEntry][] = [
        ['a video capability on an image model', broken('flux-dev', { capabilities: ['text_to_image', 'image_to_video'] })],
        ['lipsync on a video model', broken('veo-3', { capabilities: ['text_to_video', 'lipsync'] })],
        ['an upscaler priced per image', broken('real-esrgan', { pricing: { unit: 'image', creditsPerUnit: 1 } })],
        ['chat priced per second', broken('gpt-5', { pricing: { unit: 'second', creditsPerUnit: 1 } })],
        ['an infinite price', broken('flux-dev', { pricing: { unit: 'megapixel', creditsPerUnit: Infinity } })],
        ['an empty price source', broken('flux-dev', { priceSource: ' ' })],
        ['a minimum above the maximum', broken('seedance-1-pro', { limits: { minDurationS: 12, maxDurationS: 2 } })],
        ['durations outside the range', broken('luma-ray-2', { limits: { durationsS: [5, 20], maxDurationS: 10 } })],
        ['a song longer than spec §8 allows', broken('ace-step', { limits: { minDurationS: 15, maxDurationS: 240 } })],
        ['an image ratio the endpoint does not render', broken('flux-dev', { limits: { aspectRatios: ['1:1', '4:3'] } })],
        ['image ratios without 1:1', broken('flux-dev', { limits: { aspectRatios: ['16:9'] } })],
        ['a limit of another modality', broken('flux-dev', { limits: { contextTokens: 1000 } })],
        ['an output cap above the context', broken('gpt-5', { limits: { contextTokens: 1000, maxOutputTokens: 2000 } })],
        ['a lipsync avatar model without an audio limit', broken('multitalk', { limits: { maxDurationS: 10, maxTextChars: 1_000 } })],
        ['a text avatar model without a text limit', broken('veed-fabric-1.0', { limits: { maxDurationS: 60, maxAudioS: 60 } })],
        ['a portrait flag off the avatar modality', broken('hailuo-02', { animatesPortrait: true })],
      ];
      for (const [what, candidate] of cases) assert.notDeepEqual(modelEntryProblems(candidate), [], what);
      assert.deepEqual(catalogProblems([entry('flux-dev'), entry('flux-dev')]), ['duplicate slug flux-dev']);
    });
  });
});
