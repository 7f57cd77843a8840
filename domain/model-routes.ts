import { findModel } from './catalog';
import { isRealProvider, PROVIDER_MODALITIES, servesModality, SIMULATOR, type ProviderRoute } from './providers';

// MODEL_ROUTES (decisions §7): a JSON object, model slug → list of `{provider, model}` routes,
// that replaces those models' catalog routes on this deployment. To keep a catalog route next to a
// new one, list both. `simulator` is a valid provider (it serves a model offline).

export class ModelRoutesError extends Error {}

export function parseModelRoutes(raw: string | undefined): Record<string, ProviderRoute[]> {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ModelRoutesError('MODEL_ROUTES must be a JSON object: {"<model slug>": [{"provider": "...", "model": "..."}]}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ModelRoutesError('MODEL_ROUTES must be a JSON object keyed by model slug.');
  }
  const routes: Record<string, ProviderRoute[]> = {};
  for (const [slug, list] of Object.entries(parsed)) {
    const entry = findModel(slug);
    if (!entry) throw new ModelRoutesError(`MODEL_ROUTES names an unknown model "${slug}".`);
    if (!Array.isArray(list) || list.length === 0) throw new ModelRoutesError(`MODEL_ROUTES["${slug}"] must be a non-empty list of routes.`);
    routes[slug] = list.map((route, i) => {
      const { provider, model } = (route ?? {}) as { provider?: unknown; model?: unknown };
      if (typeof provider !== 'string' || !(provider === SIMULATOR || isRealProvider(provider))) {
        throw new ModelRoutesError(`MODEL_ROUTES["${slug}"][${i}].provider must be one of the provider names of decisions §7, got ${JSON.stringify(provider)}.`);
      }
      if (!servesModality(provider, entry.modality)) {
        throw new ModelRoutesError(
          `MODEL_ROUTES["${slug}"][${i}]: ${slug} is a model of modality ${entry.modality}, and ${provider} serves ${PROVIDER_MODALITIES[provider].join(', ')} models in this gateway.`,
        );
      }
      if (typeof model !== 'string' || model.length === 0 || model.length > 200) {
        throw new ModelRoutesError(`MODEL_ROUTES["${slug}"][${i}].model must be the provider's model id (a non-empty string).`);
      }
      return { provider, model } as ProviderRoute;
    });
  }
  return routes;
}
