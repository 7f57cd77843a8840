// A validated generation request, as the request builders hand it to startGeneration. It lives
// apart from start-generation.ts so that serve-from-cache.ts, which start-generation.ts calls, can
// name it without importing its caller.
import type { JobInput } from '../../domain/job-input';
import type { ModelEntry } from '../../domain/catalog';

export interface GenerationRequest {
  model: ModelEntry;
  prompt: string;
  params: Record<string, unknown>;
  estimatedCredits: number;
  /** Input files already fetched and stored (api/admission/inputs.ts). */
  inputs?: Record<string, JobInput>;
}
