import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { buildChatRequest } from '../admission/generation-requests/chat';
import { principalOf } from '../middleware/authenticate';
import { isChatCompletion, presentChatCompletion } from '../presenters/chat-completion';
import { presentGeneration } from '../presenters/generation';
import { ROUTES } from '../route-table';
import { startGeneration } from '../admission/start-generation';
import { setGatewayOverhead } from '../gateway-overhead';
import { takeMaxCredits } from '../admission/max-credits';
import { outputsExpiryOf } from '../middleware/output-retention';

/**
 * POST /v1/chat (sync, 200): answers a Chat completion (`succeeded` or `failed`); a chat still
 * running at the sync deadline is answered 202 with its Generation, to poll, and one cancelled
 * while the request waited 200 with its Generation (`canceled`), as the cancel itself answers.
 */
export function registerChatRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createChat, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const request = await buildChatRequest(deps, principal, body);
    const { httpStatus, generation, outputs } = await startGeneration(deps, principal, request, ctx.state.idempotency, ctx.path, ctx.headers, outputsExpiryOf(ctx), maxCredits);
    ctx.status = httpStatus;
    if (httpStatus === 200) setGatewayOverhead(ctx, generation);
    ctx.body = httpStatus === 200 && isChatCompletion(generation) ? presentChatCompletion(generation) : await presentGeneration(generation, outputs, deps.storage);
  });
}
