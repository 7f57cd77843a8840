import { findModel, type ModelEntry } from '../../../domain/catalog';
import { DEFAULT_ASPECT_RATIO, type AspectRatio } from '../../../domain/image-sizes';
import { defaultVideoDurationS, speechDurationMs } from '../../../domain/media-durations';
import type { Modality } from '../../../domain/modalities';
import type { Plan } from '../../../domain/plans';
import { admissionCredits, estimateCredits, type JobMeasure } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ProviderName, ProviderRoute } from '../../../domain/providers';
import type { Schemas } from '../api';

// What a request will reserve, shown before it is sent: the API's own pricing rules
// (domain/request-measures.ts: what each request is priced on; domain/pricing.ts: estimateCredits
// on the plan, then admissionCredits, which makes simulated-only output free) applied to the body
// the dashboard is about to send, and the input file's measures (an upscale's image size, a transcription's length). The forms always send the
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

/** The input file's measures: an image's size (from the uploaded file or the chosen output), an audio's length. */
export interface InputMeasure {
  width?: number;
  height?: number;
  durationMs?: number;
}

/**
 * The credits of a request as its creation endpoint prices it (api/admission/generation-requests/*,
 * the same domain functions on the same quantities). An upscale is priced on its input image's
 * size and a transcription on its audio's length, so they need `input`; undefined without it (and
 * for lipsync, whose audio the dashboard does not send).
 */
function priceOf(modality: Modality, entry: ModelEntry, body: Record<string, unknown>, plan: Plan, input: InputMeasure | undefined): number | undefined {
  const at = (measure: JobMeasure | undefined) => measure && estimateCredits(entry, measure, plan);
  const given = <T>(value: T | undefined, measure: (value: T) => JobMeasure) => (value === undefined ? undefined : measure(value));
  switch (modality) {
    case 'image':
      return at(REQUEST_MEASURES.image(int(body.num_outputs) ?? 1, (text(body.aspect_ratio) || DEFAULT_ASPECT_RATIO) as AspectRatio));
    case 'video':
      return at(REQUEST_MEASURES.timed(int(body.duration_s) ?? defaultVideoDurationS(entry)));
    case 'music':
      return at(given(int(body.duration_s), REQUEST_MEASURES.timed));
    case 'chat':
      return at(given(int(body.max_tokens), REQUEST_MEASURES.chat));
    case 'voice':
      return body.operation === 'transcription' ? at(given(input?.durationMs, REQUEST_MEASURES.transcription)) : at(REQUEST_MEASURES.speech(text(body.text)));
    case 'avatar':
      return body.text === undefined ? undefined : at({ durationMs: speechDurationMs(text(body.text)) });
    case '3d':
      return at(REQUEST_MEASURES.threeD());
    case 'upscale':
      return input?.width && input.height ? at(REQUEST_MEASURES.upscale({ width: input.width, height: input.height }, Number(body.scale_factor))) : undefined;
  }
}

/** The estimate of sending `body` (with an input image of size `input`) to `model` on `plan`, or undefined when it cannot be known in advance. */
export function estimateRequest(model: Model, body: Record<string, unknown>, plan: Plan, input?: InputMeasure): Estimate | undefined {
  const entry = findModel(model.slug);
  if (!entry) return undefined;
  let credits: number | undefined;
  try {
    credits = priceOf(model.modality, entry, body, plan, input);
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
