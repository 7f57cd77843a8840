import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildChatRequest } from '../generation-requests/chat';
import { principalOf } from '../middleware/authenticate';
import { presentChatCompletion } from '../presenters/chat-completion';
import { presentGeneration } from '../presenters/generation';
import { ROUTES } from '../route-table';
import { startGeneration } from '../start-generation';

/**
 * POST /v1/chat (sync, 200): answers a Chat completion; a completion still running at the sync
 * deadline is answered 202 with its Generation, to poll.
 */
export function registerChatRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createChat, async (ctx) => {
    const principal = principalOf(ctx);
    const request = await buildChatRequest(deps, principal, ctx.state.body);
    const { httpStatus, generation, outputs } = await startGeneration(deps, principal, request, ctx.state.idempotency);
    ctx.status = httpStatus;
    ctx.body = httpStatus === 200 ? presentChatCompletion(generation) : await presentGeneration(generation, outputs, deps.storage);
  });
}
