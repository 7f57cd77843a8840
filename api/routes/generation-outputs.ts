import { isTerminal } from '../../domain/generation-status';
import { removeGenerationOutputs } from '../../db/output-removal';
import { metrics } from '../../observability/metrics';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { requireModalityWrite } from '../middleware/authorize';
import { presentGeneration } from '../presenters/generation';
import { ROUTES } from '../route-table';

/**
 * DELETE /v1/generations/{id}/outputs (issue 42 item 3): removes a finished job's output files at
 * once, as the retention sweep would at expiry. The generation record, its charge and its ledger
 * rows stay; its outputs stay listed with `deleted_at`, and their URLs answer 410. It needs the
 * write scope of the job's modality, as creating or cancelling it does. Idempotent: a second call
 * finds nothing left and answers the same way.
 */
export function registerGenerationOutputRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.deleteGenerationOutputs, async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.id ?? '';
    const found = await deps.repos.generations.findWithOutputs(id, principal);
    if (!found) throw notFound('generation', id);
    requireModalityWrite(principal, found.generation.modality, `Deleting a ${found.generation.modality} generation's outputs`);
    // A job still running could store outputs after the delete; it must end first.
    if (!isTerminal(found.generation.status)) {
      throw new ApiError('generation_not_finished', `Generation '${id}' is ${found.generation.status}; cancel it or wait for it to finish, then delete its outputs.`);
    }
    const removed = await removeGenerationOutputs(deps.knex, deps.storage, id, deps.clock());
    metrics.outputFilesDeleted.inc({ reason: 'requested' }, removed.files);
    ctx.state.logger.info('generation outputs deleted', { generation_id: id, outputs: removed.outputs, files: removed.files });
    const after = await deps.repos.generations.findWithOutputs(id, principal);
    if (!after) throw notFound('generation', id);
    ctx.body = await presentGeneration(after.generation, after.outputs, deps.storage);
  });
}
