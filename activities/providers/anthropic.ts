import Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { answerTooLargeFailure, cappedFetch, TEXT_ANSWER_CAP_BYTES } from './capped-answers';
import { badOutput, failureFromNetwork, failureFromStatus, PROVIDER_ERROR_CODES, requestSignal } from './http-failure';
import { ProviderError, type AdapterOptions, type ProviderAdapter, type ProviderCredentials, type ProviderJob, type ProviderResult } from './types';

// Claude through Anthropic's official SDK: one `messages.create` per chat generation. It answers
// in one request, so `submit` returns the result and there is nothing to poll or cancel.

const PROVIDER = 'Anthropic';
const CACHED_CLIENTS = 64;

interface ChatParams {
  messages?: { role?: string; content: string }[];
  system_prompt?: string;
  max_tokens?: number;
}

export function createAnthropicAdapter(opts: AdapterOptions): ProviderAdapter {
  const clients = new Map<string, Anthropic>();
  // One client per key and base URL; the SDK's retries are off (Temporal retries, the workflow
  // falls back to the next route).
  const clientFor = (credentials: ProviderCredentials): Anthropic => {
    const cacheKey = `${credentials.baseUrl}\n${credentials.apiKey}`;
    let client = clients.get(cacheKey);
    if (!client) {
      client = new Anthropic({
        apiKey: credentials.apiKey,
        baseURL: credentials.baseUrl,
        maxRetries: 0,
        timeout: opts.requestTimeoutMs,
        fetch: cappedFetch(TEXT_ANSWER_CAP_BYTES),
      });
      clients.set(cacheKey, client);
      if (clients.size > CACHED_CLIENTS) clients.delete(clients.keys().next().value!);
    }
    return client;
  };

  return {
    name: 'anthropic',

    async submit(job, ctx) {
      if (job.model.modality !== 'chat') {
        throw new ProviderError(PROVIDER_ERROR_CODES.rejected, `Anthropic serves chat models only; ${job.model.slug} is not a chat model (modality ${job.model.modality}).`);
      }
      try {
        const message = await clientFor(job.credentials).messages.create(messagesRequest(job), {
          signal: requestSignal(ctx.signal, opts.requestTimeoutMs),
        });
        return { state: 'done', result: chatResult(message as Message | string | undefined) };
      } catch (err) {
        throw failureFromAnthropic(err, ctx.signal);
      }
    },

    async poll() {
      throw new ProviderError(PROVIDER_ERROR_CODES.error, 'Anthropic answers at once; there is no queued job to poll.', false, { source: 'gateway' });
    },

    async cancel() {
      // Nothing is queued at Anthropic: a cancelled activity aborts its request (ctx.signal).
    },
  };
}

/**
 * Our chat params as a Messages request: the system prompt (and any system-role message) goes to
 * `system`, the rest keep their roles. Temperature is not sent: the API version the SDK speaks
 * (2026-10-21) rejects any sampling parameter, even its default.
 */
export function messagesRequest(job: ProviderJob): MessageCreateParamsNonStreaming {
  const params = job.params as ChatParams;
  const system: string[] = params.system_prompt ? [params.system_prompt] : [];
  const messages: MessageParam[] = [];
  for (const message of params.messages ?? []) {
    if (message.role === 'system') system.push(message.content);
    else messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: message.content });
  }
  return {
    model: job.route.model,
    max_tokens: typeof params.max_tokens === 'number' ? params.max_tokens : 1024,
    messages,
    ...(system.length > 0 && { system: system.join('\n\n') }),
  };
}

/** The text blocks joined, and the tokens Anthropic reports; a refusal is a content-policy failure. */
export function chatResult(message: Message | string | undefined): ProviderResult {
  if (typeof message !== 'object' || !message) throw badOutput(PROVIDER, 'the answer is not a message');
  if (message.stop_reason === 'refusal') {
    throw new ProviderError(PROVIDER_ERROR_CODES.contentPolicy, 'Anthropic declined to answer under its usage policy (stop_reason refusal).');
  }
  if (!Array.isArray(message.content)) throw badOutput(PROVIDER, 'the message has no content');
  const texts = message.content.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
  if (texts.length === 0) throw badOutput(PROVIDER, 'the message has no text block');
  const { input_tokens: inputTokens, output_tokens: outputTokens } = message.usage ?? {};
  return {
    files: [],
    text: texts.join(''),
    ...(typeof outputTokens === 'number' && { usage: { outputTokens, ...(typeof inputTokens === 'number' && { inputTokens }) } }),
  };
}

/**
 * The SDK's error as a ProviderError. Error bodies are `{type: "error", error: {type, message}}`;
 * `overloaded_error` comes as 529 and is retried like any 5xx. Our own request timeout reaches us
 * as the SDK's user abort.
 */
function failureFromAnthropic(err: unknown, cancelled: AbortSignal): unknown {
  if (cancelled.aborted) return err;
  const tooLarge = answerTooLargeFailure(PROVIDER, err);
  if (tooLarge) return tooLarge;
  if (err instanceof Anthropic.APIError && typeof err.status === 'number') {
    const detail = err.apiMessage ? `${err.apiMessage}${err.type ? ` (${err.type})` : ''}` : err.message;
    return failureFromStatus(PROVIDER, err.status, detail, err.headers?.get('retry-after'));
  }
  if (err instanceof Anthropic.APIUserAbortError) {
    return failureFromNetwork(PROVIDER, new DOMException('The request timed out.', 'TimeoutError'), cancelled);
  }
  if (err instanceof SyntaxError) return badOutput(PROVIDER, 'its answer is not valid JSON');
  if (err instanceof Anthropic.APIConnectionError && !(err instanceof Anthropic.APIConnectionTimeoutError)) {
    let cause: unknown = err;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    return failureFromNetwork(PROVIDER, new Error(cause instanceof Error ? cause.message : err.message), cancelled);
  }
  return failureFromNetwork(PROVIDER, err, cancelled);
}
