import { listModels } from '../../domain/catalog';
import { buildOpenAiChatRequest } from '../admission/generation-requests/openai-chat';
import { startGeneration } from '../admission/start-generation';
import { takeMaxCredits } from '../admission/max-credits';
import type { ApiDeps } from '../context';
import { defineRoute, type AppRouter } from '../define-route';
import { principalOf } from '../middleware/authenticate';
import { OpenAiFailure } from '../openai/error-shape';
import { presentOpenAiChatCompletion, presentOpenAiModel } from '../presenters/openai-chat-completion';
import { ROUTES } from '../route-table';
import { setGatewayOverhead } from '../gateway-overhead';
import { outputsExpiryOf } from '../middleware/output-retention';

/**
 * OpenAI's chat protocol, so that code written for OpenAI's SDKs only changes its base URL to
 * `/v1/openai`. A completion runs exactly as POST /v1/chat (same admission, reservation on max_tokens,
 * capture of the tokens produced, Idempotency-Key, budgets, plans); only the shapes differ. OpenAI has
 * no 202 and no failed completion, so a chat that did not succeed within the sync window is an error
 * naming its generation (api/openai/error-shape.ts), never a made-up answer.
 */
export function registerOpenAiChatRoutes(router: AppRouter, deps: ApiDeps): void {
  defineRoute(router, deps, ROUTES.openAiChatCompletion, async (ctx) => {
    const principal = principalOf(ctx);
    const { body, maxCredits } = takeMaxCredits(ctx.state.body);
    const { request, maxTokens } = await buildOpenAiChatRequest(deps, principal, body);
    const { generation } = await startGeneration(deps, principal, request, ctx.state.idempotency, ctx.path, ctx.headers, outputsExpiryOf(ctx), maxCredits);
    const id = generation.id;
    switch (generation.status) {
      case 'succeeded':
        setGatewayOverhead(ctx, generation);
        ctx.body = presentOpenAiChatCompletion(generation, maxTokens);
        return;
      case 'failed':
        throw new OpenAiFailure(
          'generation_failed',
          `The model failed to answer (${generation.error_code ?? 'unknown'}: ${generation.error_message ?? 'no detail'}); generation ${id} was refunded. Retry, or try another model.`,
        );
      case 'canceled':
        throw new OpenAiFailure('generation_canceled', `Generation ${id} was cancelled while this request waited; its reservation was refunded.`);
      default:
        throw new OpenAiFailure(
          'generation_still_running',
          `Generation ${id} was still running when this request's wait of ${Math.round(deps.syncTimeoutMs / 1000)} s ended. It goes on and is billed on the tokens it produces: read it with GET /v1/generations/${id}, or send this request again with the same Idempotency-Key to get the completion once it is done.`,
        );
    }
  });

  defineRoute(router, deps, ROUTES.openAiListModels, (ctx) => {
    const chatModels = listModels().filter((m) => m.modality === 'chat');
    ctx.body = { object: 'list', data: chatModels.map((m) => presentOpenAiModel(m.slug, m.routes[0]?.provider ?? 'generation-service')) };
  });
}
