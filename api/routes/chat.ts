import { chatMaxTokensAllowed } from '../../domain/media-durations';
import { estimateInputTokens } from '../../domain/model-limits';
import { estimateCredits } from '../../domain/pricing';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { principalOf } from '../middleware/authenticate';
import { presentChatCompletion } from '../presenters/chat-completion';
import { presentGeneration } from '../presenters/generation';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { ROUTES } from '../route-table';
import { CHAT_LIMITS, parseChatRequest } from '../schemas/chat';
import { startGeneration } from '../start-generation';

/**
 * POST /v1/chat (sync, 200): reserved on max_tokens (default 1,024), charged on the output tokens
 * the model reports, the rest released (spec §1). Answers a Chat completion; a completion still
 * running at the sync deadline is answered 202 with its Generation, to poll.
 */
export function registerChatRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.createChat, async (ctx) => {
    const principal = principalOf(ctx);
    const body = parseChatRequest(ctx.state.body);
    const model = resolveModel(body.model, 'chat', principal, deps.routing);
    requireCapability(model, 'text_to_text');
    const maxTokens = body.max_tokens ?? Math.min(CHAT_LIMITS.defaultMaxTokens, chatMaxTokensAllowed(model, CHAT_LIMITS.maxTokens));
    const inputTokens = estimateInputTokens([...body.messages.map((m) => m.content), body.system_prompt ?? '']);
    requireWithinLimits(model, { maxTokens, inputTokens });
    const { model: _slug, ...rest } = body;
    const { httpStatus, generation, outputs } = await startGeneration(
      deps,
      principal,
      {
        model,
        // Simulator directives (#tokens, #fail) are read from the last message.
        prompt: body.messages[body.messages.length - 1]!.content,
        params: { ...rest, max_tokens: maxTokens },
        estimatedCredits: estimateCredits(model, { outputTokens: maxTokens }, principal.plan),
      },
      ctx.state.idempotency,
    );
    ctx.status = httpStatus;
    ctx.body = httpStatus === 200 ? presentChatCompletion(generation) : await presentGeneration(generation, outputs, deps.storage);
  });
}
