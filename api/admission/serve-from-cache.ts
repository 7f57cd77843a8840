import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { GenerationRow, OutputRow } from '../../db/repos/generations';
import { generationEvent } from '../../domain/generation-events';
import { CACHE_WINDOW_MS } from '../../domain/generation-cache';
import { pricingSnapshot } from '../../domain/pricing-snapshot';
import { newId } from '../../lib/ids';
import type { ApiDeps } from '../context';
import type { GenerationRequest } from './generation-request';

/**
 * Serves a request from an earlier identical, seeded generation (decisions §4): a new generation,
 * already succeeded, with the earlier outputs and 0 credits, and its `generation.completed` event
 * in the same transaction. Undefined when there is nothing to serve.
 */
export async function serveFromCache(
  deps: Pick<ApiDeps, 'knex' | 'repos' | 'clock'>,
  principal: KeyPrincipal,
  request: GenerationRequest,
  generationId: string,
  cacheKey: string,
): Promise<{ generation: GenerationRow; outputs: OutputRow[] } | undefined> {
  const scope = { organizationId: principal.organizationId, environment: principal.environment };
  const now = deps.clock();
  const since = new Date(now.getTime() - CACHE_WINDOW_MS);
  const earlier = await deps.repos.generations.findCached({ ...scope, cacheKey, since, now });
  if (!earlier) return undefined;
  return deps.knex.transaction(async (trx) => {
    const generation = await deps.repos.generations.insertCacheHit(
      {
        id: generationId,
        organization_id: principal.organizationId,
        api_key_id: principal.apiKeyId,
        environment: principal.environment,
        modality: request.model.modality,
        model: request.model.slug,
        prompt: request.prompt,
        params: request.params,
        reserved_credits: 0,
        pricing: pricingSnapshot(request.model, principal.plan),
      },
      earlier.outputs,
      () => newId('out'),
      trx,
    );
    const event = generationEvent(generation);
    if (event) {
      await deps.repos.events.append(
        { id: newId('evt'), organization_id: generation.organization_id, environment: generation.environment, subject_id: generation.id, ...event },
        trx,
      );
    }
    const found = await deps.repos.generations.findWithOutputs(generation.id, scope, trx);
    if (!found) throw new Error(`cache hit ${generation.id} vanished inside its transaction`);
    return found;
  });
}
