import type { KeyPrincipal } from '../../../db/repos/api-keys';
import type { ApiDeps } from '../../context';
import { ApiError } from '../../errors';
import type { ChatMessage, ChatRequest } from '../../schemas/chat';
import { CHAT_LIMITS } from '../../schemas/chat';
import { parseOpenAiChatRequest, type OpenAiChatMessage, type OpenAiChatRequest } from '../../schemas/openai-chat';
import type { GenerationRequest } from '../generation-request';
import { buildChatRequest } from './chat';

/**
 * An OpenAI chat request as a POST /v1/chat request, so that it is admitted, reserved (on
 * max_tokens), charged and refunded exactly as one: system and developer messages become the system
 * prompt, text parts are joined, `max_completion_tokens` (or the older `max_tokens`) is max_tokens.
 * What the chat workflow cannot do is refused by name, never faked: several choices (`n` > 1), a
 * stream, stop sequences, a seed, and `top_p` other than 1 (the providers are sent temperature only).
 */
export async function buildOpenAiChatRequest(deps: ApiDeps, principal: KeyPrincipal, rawBody: unknown): Promise<{ request: GenerationRequest; maxTokens: number }> {
  const body = parseOpenAiChatRequest(rawBody);
  refuseUnsupported(body);
  const request = await buildChatRequest(deps, principal, toChatRequest(body));
  return { request, maxTokens: request.params.max_tokens as number };
}

function refuseUnsupported(body: OpenAiChatRequest): void {
  if (body.stream === true) {
    throw unsupported('stream', 'Streaming is not supported: send `stream: false` (or leave it out) and read the whole completion from the response.');
  }
  if (body.n !== undefined && body.n !== null && body.n > 1) {
    throw unsupported('n', 'Only one choice per request is supported (n = 1): each request is one generation. Send n requests for n completions.');
  }
  if (body.stop !== undefined && body.stop !== null && (typeof body.stop === 'string' || body.stop.length > 0)) {
    throw unsupported('stop', 'Stop sequences are not supported: leave `stop` out.');
  }
  if (body.seed !== undefined && body.seed !== null) {
    throw unsupported('seed', 'A seed is not supported: the models behind this endpoint are not asked for reproducible sampling. Leave `seed` out.');
  }
  if (body.top_p !== undefined && body.top_p !== null && body.top_p !== 1) {
    throw unsupported('top_p', 'Only top_p = 1 is supported: tune `temperature` instead.');
  }
}

const unsupported = (param: string, message: string) => new ApiError('validation_failed', message, { param });

const textOf = (message: OpenAiChatMessage) => (typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('\n'));

function toChatRequest(body: OpenAiChatRequest): ChatRequest {
  const system = body.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map(textOf)
    .join('\n\n');
  if (system.length > CHAT_LIMITS.maxSystemPrompt) {
    throw new ApiError('validation_failed', `The system and developer messages may hold at most ${CHAT_LIMITS.maxSystemPrompt} characters together.`, { param: 'messages' });
  }
  const turns: ChatMessage[] = body.messages.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({ role: m.role as 'user' | 'assistant', content: textOf(m) }));
  if (turns.length === 0 || turns.some((t) => t.content.length === 0)) {
    throw new ApiError('validation_failed', 'The messages need at least one user message, and every user or assistant message needs some text.', { param: 'messages' });
  }
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  return {
    model: body.model,
    messages: turns,
    ...(typeof maxTokens === 'number' && { max_tokens: maxTokens }),
    ...(typeof body.temperature === 'number' && { temperature: body.temperature }),
    ...(system && { system_prompt: system }),
  };
}
