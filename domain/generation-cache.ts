import { canonicalJson, sha256Hex } from '../lib/canonical-json';

// Decisions §4: a request with an explicit `seed` that matches an earlier succeeded request of the
// same organization and environment — same model, prompt and normalized params — within 24 h gets
// the earlier outputs, `cache_hit: true`, for 0 credits. "Normalized" means the params as recorded:
// defaults filled in, key order irrelevant. A generation whose outputs have expired or were deleted
// (output retention) serves no hit: the request is a miss and runs (db/repos/generations.ts findCached).

export const CACHE_WINDOW_MS = 24 * 60 * 60 * 1000;

// Simulated output (domain/provider-routing.ts simulatedOnly) is keyed apart from paid output: a
// live request that would be charged is never answered with placeholder output a simulated-mode
// request left behind, nor the other way round.

/** The cache key of a request, or undefined when it has no explicit seed (and so is never cached). */
export function generationCacheKey(request: {
  model: string;
  prompt: string;
  params: Record<string, unknown>;
  /** Whether the request can only produce simulated output. */
  simulated: boolean;
}): string | undefined {
  if (request.params.seed === undefined || request.params.seed === null) return undefined;
  const { model, prompt, params, simulated } = request;
  return sha256Hex(canonicalJson({ model, prompt, params, ...(simulated && { output: 'simulated' }) }));
}
