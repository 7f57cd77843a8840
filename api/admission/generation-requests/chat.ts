import type { KeyPrincipal } from '../../../db/repos/api-keys';
import { chatMaxTokensAllowed } from '../../../domain/media-durations';
import { estimateInputTokens } from '../../../domain/model-limits';
import { pricedJob } from '../../../domain/pricing';
import { REQUEST_MEASURES } from '../../../domain/request-measures';
import type { ApiDeps } from '../../context';
import { requireCapability, requireWithinLimits, resolveModel } from '../resolve-model';
import { CHAT_LIMITS, parseChatRequest } from '../../schemas/chat';
import type { GenerationRequest } from '../generation-request';

/**
 * A chat request: reserved on max_tokens (default 1,024, or less when the model allows less),
 * charged on the output tokens the model reports, the rest released (spec §1). It takes no input
 * files.
 */
export async function buildChatRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown): Promise<GenerationRequest> {
  const body = parseChatRequest(rawBody);
  const model = resolveModel(body.model, 'chat', principal, deps.routing);
  requireCapability(model, 'text_to_text');
  const maxTokens = body.max_tokens ?? Math.min(CHAT_LIMITS.defaultMaxTokens, chatMaxTokensAllowed(model, CHAT_LIMITS.maxTokens));
  const inputTokens = estimateInputTokens([...body.messages.map((m) => m.content), body.system_prompt ?? '']);
  requireWithinLimits(model, { maxTokens, inputTokens });
  const { model: _slug, ...rest } = body;
  return {
    model,
    // Simulator directives (#tokens, #fail) are read from the last message.
    prompt: body.messages[body.messages.length - 1]!.content,
    params: { ...rest, max_tokens: maxTokens },
    ...pricedJob(model, REQUEST_MEASURES.chat(maxTokens), principal.plan),
  };
}
