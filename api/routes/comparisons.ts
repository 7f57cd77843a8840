import { setTimeout as sleep } from 'node:timers/promises';
import { requireModalityWrite } from '../middleware/authorize';
import { classifyDependencyError } from '../../lib/dependency-errors';
import { buildComparisonRequests, resolveComparisonModels } from '../admission/comparison-requests';
import type { ApiDeps } from '../context';
import { withTemporalDeadline } from '../dependency-health';
import { defineRoute, type AppRouter } from '../define-route';
import { ApiError, notFound } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { presentComparison } from '../presenters/comparison';
import { ROUTES } from '../route-table';
import { parseListQuery } from '../schemas/list-query';
import { parseComparisonRequest } from '../schemas/comparisons';
import { startComparison } from '../admission/start-comparison';
import { takeMaxCredits } from '../admission/max-credits';
import { outputsExpiryOf } from '../middleware/output-retention';

/** How long a cancel waits for the children to stop and the verdict to be recorded. */
const CANCEL_WAIT_MS = 20_000;
const CANCEL_POLL_MS = 50;

export function registerComparisonRoutes(router: AppRouter, deps: ApiDeps): void {
  // POST /v1/comparisons (async, 202): one prompt to 2..12 models of one modality, every model's
  // request checked and priced as its own endpoint would, the sum reserved at once.
  defineRoute(router, deps, ROUTES.createComparison, async (ctx) => {
    const principal = principalOf(ctx);
    const { body: rawBody, maxCredits } = takeMaxCredits(ctx.state.body);
    const body = parseComparisonRequest(rawBody);
    const resolved = resolveComparisonModels(body, principal);
    const children = await buildComparisonRequests(deps, principal, body, resolved);
    const found = await startComparison(
      deps,
      principal,
      { modality: resolved.modality, prompt: body.prompt, paramsShared: body.params_shared ?? {}, children, maxCredits },
      ctx.state.idempotency,
      ctx.path,
      ctx.headers,
      outputsExpiryOf(ctx),
    );
    ctx.status = 202;
    ctx.body = await presentComparison(found, deps.storage, { asAccepted: true });
  });

  defineRoute(router, deps, ROUTES.listComparisons, async (ctx) => {
    const principal = principalOf(ctx);
    const query = parseListQuery(ctx.query);
    let startingAfter;
    if (query.starting_after) {
      startingAfter = (await deps.repos.comparisons.findWithChildren(query.starting_after, principal))?.comparison;
      if (!startingAfter) throw new ApiError('resource_not_found', `No such comparison: '${query.starting_after}'.`, { param: 'starting_after' });
    }
    const page = await deps.repos.comparisons.listPage(principal, { limit: Number(query.limit ?? 20), ...(startingAfter && { startingAfter }) });
    ctx.body = { object: 'list', data: await Promise.all(page.rows.map((row) => presentComparison(row, deps.storage))), has_more: page.hasMore };
  });

  defineRoute(router, deps, ROUTES.getComparison, async (ctx) => {
    const principal = principalOf(ctx);
    const found = await deps.repos.comparisons.findWithChildren(ctx.params.id ?? '', principal);
    if (!found) throw notFound('comparison', ctx.params.id ?? '');
    ctx.body = await presentComparison(found, deps.storage);
  });

  // Cancels the comparison's workflow, which cancels its running children (each refunds itself)
  // and records the verdict the children give: what finished stays finished and charged.
  defineRoute(router, deps, ROUTES.cancelComparison, async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.id ?? '';
    const found = await deps.repos.comparisons.findWithChildren(id, principal);
    if (!found) throw notFound('comparison', id);
    requireModalityWrite(principal, found.comparison.modality, `Cancelling a ${found.comparison.modality} comparison`);
    if (found.comparison.status !== 'open') {
      throw new ApiError('comparison_not_cancelable', `Comparison '${id}' is ${found.comparison.status}; only a comparison still running can be cancelled.`);
    }
    try {
      await withTemporalDeadline(deps.temporal, () => deps.temporal.workflow.getHandle(id).cancel());
    } catch (err) {
      if (err instanceof ApiError || classifyDependencyError(err)) throw err;
      // Already closed: the reconciler records its verdict; the row says where it stands.
      deps.logger.debug('cancel of a closed comparison workflow', { comparison_id: id, error: String(err) });
    }
    const deadline = Date.now() + CANCEL_WAIT_MS;
    let current = found;
    while (current.comparison.status === 'open' && Date.now() < deadline) {
      await sleep(CANCEL_POLL_MS);
      current = (await deps.repos.comparisons.findWithChildren(id, principal)) ?? current;
    }
    // Still open at the deadline: the cancel is under way; 202 says so.
    ctx.status = current.comparison.status === 'open' ? 202 : 200;
    ctx.body = await presentComparison(current, deps.storage);
  });
}
