import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { badOutput, PROVIDER_ERROR_CODES } from './http-failure';
import { ProviderError, type ProviderJob, type ProviderResult } from './types';

// Chat through `POST /chat/completions`, for OpenAI itself and for any server that speaks its
// protocol (vLLM, Ollama, LocalAI, a company gateway).

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 but not gpt-5-chat) take only the default
 * temperature and answer a temperature of 0.7 with a 400, so the request leaves it out for them.
 */
const FIXED_TEMPERATURE = /^(o\d|gpt-5)(?!.*-chat)/;

interface ChatParams {
  messages?: { role?: string; content: string }[];
  system_prompt?: string;
  max_tokens?: number;
  temperature?: number;
}

/**
 * Our chat params as a Chat Completions request. OpenAI caps the answer with
 * `max_completion_tokens` (its reasoning models reject `max_tokens`); OpenAI-compatible servers
 * know `max_tokens` (Ollama and older vLLM ignore the newer name).
 */
export function chatRequest(job: ProviderJob, provider: 'openai' | 'openai_compatible'): ChatCompletionCreateParamsNonStreaming {
  const params = job.params as ChatParams;
  const messages: ChatCompletionMessageParam[] = [];
  if (params.system_prompt) messages.push({ role: 'system', content: params.system_prompt });
  for (const message of params.messages ?? []) {
    if (message.role === 'assistant') messages.push({ role: 'assistant', content: message.content });
    else if (message.role === 'system') messages.push({ role: 'system', content: message.content });
    else messages.push({ role: 'user', content: message.content });
  }
  const model = job.route.model;
  const sendTemperature = typeof params.temperature === 'number' && !(provider === 'openai' && FIXED_TEMPERATURE.test(model));
  return {
    model,
    messages,
    ...(typeof params.max_tokens === 'number' && (provider === 'openai' ? { max_completion_tokens: params.max_tokens } : { max_tokens: params.max_tokens })),
    ...(sendTemperature && { temperature: params.temperature }),
  };
}

/**
 * The first choice's text, and the tokens the server reports (a server that reports none leaves
 * `usage` out: the gateway then counts the tokens itself). A content filter or a refusal is a
 * content-policy failure; an answer without a choice or text is bad output.
 */
export function chatResult(provider: string, completion: ChatCompletion | string | undefined): ProviderResult {
  const choice = typeof completion === 'object' && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (!choice) throw badOutput(provider, 'the chat completion has no choices');
  if (choice.finish_reason === 'content_filter') {
    throw new ProviderError(PROVIDER_ERROR_CODES.contentPolicy, `${provider} stopped the answer with its content filter.`);
  }
  const message = choice.message as ChatCompletion.Choice['message'] | undefined;
  if (message?.refusal) {
    throw new ProviderError(PROVIDER_ERROR_CODES.contentPolicy, `${provider} refused to answer: ${message.refusal.slice(0, 300)}`);
  }
  if (typeof message?.content !== 'string') throw badOutput(provider, 'the chat completion has no message content');
  const usage = typeof completion === 'object' ? completion.usage : undefined;
  const outputTokens = usage?.completion_tokens;
  return {
    files: [],
    text: message.content,
    ...(typeof outputTokens === 'number' &&
      outputTokens >= 0 && {
        usage: { outputTokens, ...(typeof usage?.prompt_tokens === 'number' && { inputTokens: usage.prompt_tokens }) },
      }),
  };
}

export async function runChat(client: OpenAI, job: ProviderJob, provider: 'openai' | 'openai_compatible', displayName: string, signal: AbortSignal): Promise<ProviderResult> {
  const completion = await client.chat.completions.create(chatRequest(job, provider), { signal });
  return chatResult(displayName, completion as ChatCompletion | string | undefined);
}
