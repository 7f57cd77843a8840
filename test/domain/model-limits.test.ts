import assert from 'node:assert/strict';
import { findModel, listModels, type ModelEntry, type ModelLimits } from '../../domain/catalog';
import { estimateInputTokens, modelLimitViolation, type LimitedQuantity, type LimitedRequest } from '../../domain/model-limits';

const model = (slug: string): ModelEntry => {
  const found = findModel(slug);
  assert.ok(found, `no model ${slug}`);
  return found;
};

/**
 * For every limit a catalog entry can declare, a request that breaks just that limit and the
 * quantity it must be refused on. A Record over every key of ModelLimits: a new kind of limit does
 * not compile until it is listed here, and so until the rule checks it.
 */
const BREAKERS: { [K in keyof ModelLimits]-?: (limits: ModelLimits) => [LimitedRequest, LimitedQuantity] } = {
  maxOutputs: (l) => [{ numOutputs: l.maxOutputs! + 1 }, 'numOutputs'],
  aspectRatios: () => [{ aspectRatio: '7:3' }, 'aspectRatio'],
  durationsS: (l) => [{ durationS: Math.max(...l.durationsS!) + 1 }, 'durationS'],
  minDurationS: (l) => [{ durationS: l.minDurationS! - 0.5 }, 'durationS'],
  maxDurationS: (l) => [{ durationS: l.maxDurationS! + 0.5 }, 'durationS'],
  maxTextChars: (l) => [{ textChars: l.maxTextChars! + 1 }, 'textChars'],
  maxAudioS: (l) => [{ audioS: l.maxAudioS! + 0.5 }, 'audioS'],
  contextTokens: (l) => [{ inputTokens: l.contextTokens!, maxTokens: 1 }, 'inputTokens'],
  maxOutputTokens: (l) => [{ maxTokens: l.maxOutputTokens! + 1 }, 'maxTokens'],
  scaleFactors: () => [{ scaleFactor: 3 }, 'scaleFactor'],
  maxInputMpx: (l) => {
    const side = Math.ceil(Math.sqrt(l.maxInputMpx! * 1_000_000)) + 1;
    return [{ inputImage: { width: side, height: side } }, 'inputImage'];
  },
};

/** A request that asks each limit for a value it allows. */
function fitting(limits: ModelLimits): LimitedRequest {
  const durations = limits.durationsS ?? [limits.minDurationS ?? limits.maxDurationS].filter((d): d is number => d !== undefined);
  return {
    ...(limits.maxOutputs !== undefined && { numOutputs: limits.maxOutputs }),
    ...(limits.aspectRatios && { aspectRatio: limits.aspectRatios[limits.aspectRatios.length - 1] }),
    ...(durations.length > 0 && { durationS: durations[0] }),
    ...(limits.maxTextChars !== undefined && { textChars: limits.maxTextChars }),
    ...(limits.maxAudioS !== undefined && { audioS: limits.maxAudioS }),
    ...(limits.maxOutputTokens !== undefined && { maxTokens: limits.maxOutputTokens }),
    ...(limits.contextTokens !== undefined && { inputTokens: limits.contextTokens - (limits.maxOutputTokens ?? 0) }),
    ...(limits.scaleFactors && { scaleFactor: limits.scaleFactors[0] }),
    ...(limits.maxInputMpx !== undefined && { inputImage: { width: 1000, height: Math.floor(limits.maxInputMpx * 1000) } }),
  };
}

describe('model limits (domain/model-limits.ts)', () => {
  it('refuses, for every model of the catalog, a request over each limit the model declares', () => {
    let checked = 0;
    for (const entry of listModels()) {
      for (const key of Object.keys(entry.limits) as (keyof ModelLimits)[]) {
        const [request, quantity] = BREAKERS[key](entry.limits);
        const violation = modelLimitViolation(entry, request);
        assert.equal(violation?.quantity, quantity, `${entry.slug}: ${key} with ${JSON.stringify(request)}`);
        assert.match(violation.message, new RegExp(`^Model '${entry.slug.replace(/\./g, '\\.')}' `));
        checked++;
      }
    }
    assert.ok(checked > 100, `only ${checked} limits checked`);
  });

  it('accepts, for every model, a request at the edge of each of its limits', () => {
    for (const entry of listModels()) {
      assert.equal(modelLimitViolation(entry, fitting(entry.limits)), undefined, entry.slug);
    }
  });

  it('checks only the quantities a request names', () => {
    assert.equal(modelLimitViolation(model('recraft-v3'), {}), undefined);
    assert.equal(modelLimitViolation(model('trellis'), { numOutputs: 4, durationS: 9999 }), undefined, 'a 3D model declares no limits');
  });

  it('says what the model allows in every refusal', () => {
    const says = (slug: string, request: LimitedRequest, ...parts: string[]) => {
      const message = modelLimitViolation(model(slug), request)?.message ?? '';
      for (const part of parts) assert.ok(message.includes(part), `${slug}: "${message}" lacks "${part}"`);
    };
    says('recraft-v3', { numOutputs: 4 }, 'at most 1 image per request', 'not 4');
    says('imagen-4', { aspectRatio: '3:2' }, 'aspect ratios 1:1, 16:9, 9:16', 'not 3:2');
    says('hailuo-02', { durationS: 7 }, 'videos of 6 or 10 seconds', '7 seconds');
    says('seedance-1-pro', { durationS: 13 }, 'videos of 2 to 12 seconds');
    says('lyria-2', { durationS: 60 }, 'music of exactly 30 seconds');
    says('minimax-music-v2', { durationS: 200 }, 'music of 15 to 180 seconds');
    says('multitalk', { durationS: 10.04 }, 'avatar videos of at most 10 seconds', '10.1 seconds long');
    says('openai-tts-1', { textChars: 4097 }, 'at most 4096 characters', '4097');
    says('latentsync', { audioS: 130 }, 'at most 120 seconds of audio', '130 seconds');
    says('deepseek-chat', { maxTokens: 9000 }, 'at most 8000 output tokens');
    says('deepseek-chat', { inputTokens: 127_500, maxTokens: 1024 }, 'context window of 128000 tokens', 'about 127500 tokens', '1024 more');
    says('aura-sr', { scaleFactor: 2 }, 'scales by 4 only', 'not 2');
    says('real-esrgan', { scaleFactor: 3 }, 'scales by 2 or 4');
    says('real-esrgan', { inputImage: { width: 3000, height: 2000 } }, 'at most 4 megapixels', '3000x2000 (6 megapixels)');
  });

  it('holds music to spec §8 (15 to 180 s) where a model declares no range of its own', () => {
    const unlimited: ModelEntry = { ...model('ace-step'), limits: {} };
    assert.equal(modelLimitViolation(unlimited, { durationS: 14 })?.quantity, 'durationS');
    assert.equal(modelLimitViolation(unlimited, { durationS: 181 })?.quantity, 'durationS');
    assert.equal(modelLimitViolation(unlimited, { durationS: 180 }), undefined);
  });

  it('estimates chat input at 4 characters a token, rounded up', () => {
    assert.equal(estimateInputTokens(['abcd', 'e']), 2);
    assert.equal(estimateInputTokens(['']), 0);
    assert.equal(estimateInputTokens(['x'.repeat(400_000)]), 100_000);
  });
});
