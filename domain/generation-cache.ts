import { canonicalJson, sha256Hex } from '../lib/canonical-json';

// Decisions §4: a request with an explicit `seed` that matches an earlier succeeded request of the
// same organization and environment — same model, prompt and normalized params — within 24 h gets
// the earlier outputs, `cache_hit: true`, for 0 credits. "Normalized" means the params as recorded:
// defaults filled in, key order irrelevant.

export const CACHE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The cache key of a request, or undefined when it has no explicit seed (and so is never cached). */
export function generationCacheKey(request: { model: string; prompt: string; params: Record<string, unknown> }): string | undefined {
  if (request.params.seed === undefined || request.params.seed === null) return undefined;
  return sha256Hex(canonicalJson({ model: request.model, prompt: request.prompt, params: request.params }));
}
