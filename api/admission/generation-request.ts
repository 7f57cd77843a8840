// A validated generation request, as the request builders hand it to startGeneration. It lives
// apart from start-generation.ts so that serve-from-cache.ts, which start-generation.ts calls, can
// name it without importing its caller.
import type { JobInput } from '../../domain/job-input';
import type { ModelEntry } from '../../domain/catalog';
import type { JobMeasure } from '../../domain/pricing';

export interface GenerationRequest {
  model: ModelEntry;
  prompt: string;
  params: Record<string, unknown>;
  estimatedCredits: number;
  /** What `estimatedCredits` was computed from (domain/pricing.ts), for a quote's pricing inputs. */
  measure: JobMeasure;
  /** Input files already fetched and stored (api/admission/inputs.ts). */
  inputs?: Record<string, JobInput>;
}
