import type { ModelEntry } from './catalog';
import { MUSIC_DURATION_S } from './media-durations';
import type { Modality } from './modalities';

// Whether a request fits its model's limits (the `limits` of the catalog entry, as GET /v1/models
// shows them). One rule for every endpoint, and for every model of a comparison: the caller
// describes what the request asks for in the limits' own units, and gets back the first limit it
// breaks, with a message that names the model's allowed values.

/** What a request asks of its model. Only the quantities given are checked. */
export interface LimitedRequest {
  /** image: outputs in one request (`maxOutputs`). */
  numOutputs?: number;
  /** image, video: the output's aspect ratio (`aspectRatios`). */
  aspectRatio?: string;
  /** video, music, avatar: the output's length in seconds (`durationsS`, `minDurationS`, `maxDurationS`). */
  durationS?: number;
  /** voice (tts, clone), avatar (text): characters of input text (`maxTextChars`). */
  textChars?: number;
  /** voice (transcription), avatar (lipsync): seconds of input audio (`maxAudioS`). */
  audioS?: number;
  /** chat: the output tokens reserved, max_tokens (`maxOutputTokens`, and `contextTokens` with the input). */
  maxTokens?: number;
  /** chat: the input's tokens, estimated (`contextTokens`; see estimateInputTokens). */
  inputTokens?: number;
  /** upscale: the scale factor (`scaleFactors`). */
  scaleFactor?: number;
  /** upscale: the input image's size (`maxInputMpx`). */
  inputImage?: { width: number; height: number };
}

export type LimitedQuantity = keyof LimitedRequest;

export interface LimitViolation {
  /** The quantity of the request that breaks the limit. */
  quantity: LimitedQuantity;
  message: string;
}

/**
 * Chat input is counted before any tokenizer runs: about 4 characters a token, the usual rule of
 * thumb for English (and what the simulator reports as input usage).
 */
export const CHARS_PER_TOKEN = 4;

export function estimateInputTokens(texts: readonly string[]): number {
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The length range a timed modality has when its model declares none (spec §8 for music). */
const DEFAULT_DURATION_RANGE_S: Partial<Record<Modality, { min: number; max: number }>> = {
  music: { min: MUSIC_DURATION_S.min, max: MUSIC_DURATION_S.max },
};

const WHAT_IS_TIMED: Partial<Record<Modality, string>> = { video: 'videos', music: 'music', avatar: 'avatar videos' };

/** The first limit of `model` that `request` breaks, or undefined when it fits them all. */
export function modelLimitViolation(model: ModelEntry, request: LimitedRequest): LimitViolation | undefined {
  const limits = model.limits;
  const name = `Model '${model.slug}'`;
  const { numOutputs, aspectRatio, durationS, textChars, audioS, maxTokens, inputTokens, scaleFactor, inputImage } = request;

  if (numOutputs !== undefined && limits.maxOutputs !== undefined && numOutputs > limits.maxOutputs) {
    const images = limits.maxOutputs === 1 ? 'image' : 'images';
    return { quantity: 'numOutputs', message: `${name} makes at most ${limits.maxOutputs} ${images} per request, not ${numOutputs}.` };
  }
  if (aspectRatio !== undefined && limits.aspectRatios && !limits.aspectRatios.includes(aspectRatio)) {
    return { quantity: 'aspectRatio', message: `${name} renders the aspect ratios ${limits.aspectRatios.join(', ')}, not ${aspectRatio}.` };
  }
  if (durationS !== undefined) {
    const allowed = allowedDurations(model);
    if (allowed && !allowed.fits(durationS)) {
      return { quantity: 'durationS', message: `${name} makes ${allowed.text}; this request is ${seconds(durationS)} long.` };
    }
  }
  if (textChars !== undefined && limits.maxTextChars !== undefined && textChars > limits.maxTextChars) {
    return { quantity: 'textChars', message: `${name} takes at most ${limits.maxTextChars} characters of text; this text has ${textChars}.` };
  }
  if (audioS !== undefined && limits.maxAudioS !== undefined && audioS > limits.maxAudioS) {
    return { quantity: 'audioS', message: `${name} takes at most ${seconds(limits.maxAudioS)} of audio; this audio is ${seconds(audioS)} long.` };
  }
  if (maxTokens !== undefined && limits.maxOutputTokens !== undefined && maxTokens > limits.maxOutputTokens) {
    return { quantity: 'maxTokens', message: `${name} writes at most ${limits.maxOutputTokens} output tokens, not ${maxTokens}.` };
  }
  if (inputTokens !== undefined && limits.contextTokens !== undefined && inputTokens + (maxTokens ?? 0) > limits.contextTokens) {
    return {
      quantity: 'inputTokens',
      message:
        `${name} has a context window of ${limits.contextTokens} tokens; this input is about ${inputTokens} tokens ` +
        `(${CHARS_PER_TOKEN} characters a token)${maxTokens ? ` and ${maxTokens} more are reserved for the answer` : ''}. Shorten the messages.`,
    };
  }
  if (scaleFactor !== undefined && limits.scaleFactors && !limits.scaleFactors.includes(scaleFactor)) {
    const factors = limits.scaleFactors.length === 1 ? `${limits.scaleFactors[0]} only` : limits.scaleFactors.join(' or ');
    return { quantity: 'scaleFactor', message: `${name} scales by ${factors}, not ${scaleFactor}.` };
  }
  if (inputImage && limits.maxInputMpx !== undefined && inputImage.width * inputImage.height > limits.maxInputMpx * 1_000_000) {
    const mpx = Math.round((inputImage.width * inputImage.height) / 10_000) / 100;
    return {
      quantity: 'inputImage',
      message: `${name} takes images of at most ${limits.maxInputMpx} megapixels; this one is ${inputImage.width}x${inputImage.height} (${mpx} megapixels).`,
    };
  }
  return undefined;
}

/** The lengths a model makes, as a test and as words; undefined when it has no length limits. */
function allowedDurations(model: ModelEntry): { fits(s: number): boolean; text: string } | undefined {
  const { durationsS, minDurationS, maxDurationS } = model.limits;
  const what = WHAT_IS_TIMED[model.modality] ?? 'outputs';
  if (durationsS) {
    return { fits: (s) => durationsS.includes(s), text: `${what} of ${orList(durationsS)} seconds` };
  }
  const fallback = DEFAULT_DURATION_RANGE_S[model.modality];
  const min = minDurationS ?? fallback?.min;
  const max = maxDurationS ?? fallback?.max;
  if (min === undefined && max === undefined) return undefined;
  const fits = (s: number) => (min === undefined || s >= min) && (max === undefined || s <= max);
  if (min !== undefined && max !== undefined) {
    return { fits, text: min === max ? `${what} of exactly ${min} seconds` : `${what} of ${min} to ${max} seconds` };
  }
  return { fits, text: min !== undefined ? `${what} of at least ${min} seconds` : `${what} of at most ${max} seconds` };
}

function orList(values: readonly number[]): string {
  return values.length === 1 ? String(values[0]) : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/** 12 → "12 seconds", 10.04 → "10.1 seconds": rounded up, so a length just over a limit never reads as equal to it. */
function seconds(s: number): string {
  const rounded = Math.ceil(s * 10) / 10;
  return `${rounded} ${rounded === 1 ? 'second' : 'seconds'}`;
}
