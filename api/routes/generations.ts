import { setTimeout as sleep } from 'node:timers/promises';
import { requireModalityWrite } from '../middleware/authorize';
import { isTerminal } from '../../domain/generation-status';
import { classifyDependencyError } from '../../lib/dependency-errors';
import type { ApiDeps } from '../context';
import { withTemporalDeadline } from '../dependency-health';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentGeneration } from '../presenters/generation';
import { ROUTES } from '../route-table';
import { parseGenerationListQuery } from '../schemas/generations';

/** How long a cancel waits for the workflow to refund; a sync job's provider call can hold it ~8 s. */
const CANCEL_WAIT_MS = 20_000;
const CANCEL_POLL_MS = 50;

export function registerGenerationRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.listGenerations, async (ctx) => {
    const principal = principalOf(ctx);
    const query = parseGenerationListQuery(ctx.query);
    let startingAfter;
    if (query.starting_after) {
      startingAfter = (await deps.repos.generations.findWithOutputs(query.starting_after, principal))?.generation;
      if (!startingAfter) {
        throw new ApiError('resource_not_found', `No such generation: '${query.starting_after}'.`, { param: 'starting_after' });
      }
    }
    const page = await deps.repos.generations.listPage(principal, {
      limit: Number(query.limit ?? 20),
      ...(startingAfter && { startingAfter }),
      ...(query.modality && { modality: query.modality }),
      ...(query.status && { status: query.status }),
      ...(query.model && { model: query.model }),
      ...(query.api_key && { apiKeyId: query.api_key }),
    });
    ctx.body = {
      object: 'list',
      data: await Promise.all(page.rows.map((r) => presentGeneration(r.generation, r.outputs, deps.storage))),
      has_more: page.hasMore,
    };
  });

  defineRoute(router, deps, ROUTES.getGeneration, async (ctx) => {
    const principal = principalOf(ctx);
    const found = await deps.repos.generations.findWithOutputs(ctx.params.id ?? '', principal);
    if (!found) throw notFound('generation', ctx.params.id ?? '');
    ctx.body = await presentGeneration(found.generation, found.outputs, deps.storage);
  });

  // Cancels the workflow (which asks the provider to stop and refunds the whole reservation in a
  // non-cancellable scope), then answers with the outcome the database records. A cancel that
  // loses the race to completion answers 409, like a cancel of a finished generation.
  defineRoute(router, deps, ROUTES.cancelGeneration, async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.id ?? '';
    const found = await deps.repos.generations.findWithOutputs(id, principal);
    if (!found) throw notFound('generation', id);
    requireModalityWrite(principal, found.generation.modality, `Cancelling a ${found.generation.modality} generation`);
    if (isTerminal(found.generation.status)) throw notCancelable(id, found.generation.status);

    try {
      await withTemporalDeadline(deps.temporal, () => deps.temporal.workflow.getHandle(id).cancel());
    } catch (err) {
      // Temporal unreachable: the cancel was not delivered, so 503 tells the caller to retry it.
      if (err instanceof ApiError || classifyDependencyError(err)) throw err;
      // Already closed: the row says how it ended.
      deps.logger.debug('cancel of a closed workflow', { generation_id: id, error: String(err) });
    }
    const deadline = Date.now() + CANCEL_WAIT_MS;
    let current = found;
    while (!isTerminal(current.generation.status) && Date.now() < deadline) {
      await sleep(CANCEL_POLL_MS);
      current = (await deps.repos.generations.findWithOutputs(id, principal)) ?? current;
    }
    if (isTerminal(current.generation.status) && current.generation.status !== 'canceled') {
      throw notCancelable(id, current.generation.status);
    }
    // Still running at the deadline: the cancel is under way; 202 says so.
    ctx.status = current.generation.status === 'canceled' ? 200 : 202;
    ctx.body = await presentGeneration(current.generation, current.outputs, deps.storage);
  });
}

function notCancelable(id: string, status: string): ApiError {
  return new ApiError('generation_not_cancelable', `Generation '${id}' is ${status}; only queued or running generations can be cancelled.`);
}
