import { findModel, type ModelEntry } from '../../../domain/catalog';
import { DEFAULT_ASPECT_RATIO, imageSize, type AspectRatio } from '../../../domain/image-sizes';
import { defaultVideoDurationS, speechDurationMs } from '../../../domain/media-durations';
import type { Modality } from '../../../domain/modalities';
import type { Plan } from '../../../domain/plans';
import { admissionCredits, estimateCredits, estimateImageCredits, type JobMeasure } from '../../../domain/pricing';
import type { ProviderName, ProviderRoute } from '../../../domain/providers';
import type { Schemas } from '../api';

// What a request will reserve, shown before it is sent: the API's own pricing functions
// (domain/pricing.ts: estimateCredits on the plan, then admissionCredits, which makes simulated-only
// output free) applied to the body the dashboard is about to send. The forms always send the
// priced fields explicitly (size, count, duration, max_tokens), so no API default is guessed here;
// a video comparison's per-model default length comes from domain/media-durations.ts as the API's.

type Model = Schemas['Model'];

export interface Estimate {
  /** The model's price for this request on the plan. */
  credits: number;
  /** What admission will hold: 0 when the key's routes for the model are simulator-only. */
  reserved: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * The credits of a request as its creation endpoint prices it (api/admission/generation-requests/*,
 * the same domain functions on the same quantities). Undefined when the price depends on an
 * uploaded file (upscale, transcription, lipsync), which the dashboard does not send.
 */
function priceOf(modality: Modality, entry: ModelEntry, body: Record<string, unknown>, plan: Plan): number | undefined {
  const at = (measure: JobMeasure | undefined) => measure && estimateCredits(entry, measure, plan);
  const seconds = (value: number | undefined) => (value === undefined ? undefined : { durationMs: value * 1000 });
  switch (modality) {
    case 'image':
      return estimateImageCredits(entry, { numOutputs: int(body.num_outputs) ?? 1, ...imageSize((text(body.aspect_ratio) || DEFAULT_ASPECT_RATIO) as AspectRatio) }, plan);
    case 'video':
      return at(seconds(int(body.duration_s) ?? defaultVideoDurationS(entry)));
    case 'music':
      return at(seconds(int(body.duration_s)));
    case 'chat': {
      const maxTokens = int(body.max_tokens);
      return at(maxTokens === undefined ? undefined : { outputTokens: maxTokens });
    }
    case 'voice':
      return body.operation === undefined || body.operation === 'tts' ? at({ characters: text(body.text).length }) : undefined;
    case 'avatar':
      return body.text === undefined ? undefined : at({ durationMs: speechDurationMs(text(body.text)) });
    case '3d':
      return at({ count: 1 });
    case 'upscale':
      return undefined;
  }
}

/** The estimate of sending `body` to `model` on `plan`, or undefined when it cannot be known in advance. */
export function estimateRequest(model: Model, body: Record<string, unknown>, plan: Plan): Estimate | undefined {
  const entry = findModel(model.slug);
  if (!entry) return undefined;
  let credits: number | undefined;
  try {
    credits = priceOf(model.modality, entry, body, plan);
  } catch {
    return undefined; // a field still being typed (a blank duration): no estimate yet
  }
  if (credits === undefined) return undefined;
  const routes: ProviderRoute[] = model.providers.map((provider) => ({ provider: provider as ProviderName, model: model.slug }));
  return { credits, reserved: admissionCredits(credits, routes) };
}

/** The sum of several estimates, or undefined if any is unknown. */
export function sumEstimates(estimates: (Estimate | undefined)[]): Estimate | undefined {
  if (estimates.some((e) => e === undefined)) return undefined;
  return (estimates as Estimate[]).reduce((sum, e) => ({ credits: sum.credits + e.credits, reserved: sum.reserved + e.reserved }), { credits: 0, reserved: 0 });
}
