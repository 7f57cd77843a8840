import type { GenerationRow } from '../../db/repos/generations';

/**
 * A chat that succeeded, as OpenAI's `chat.completion` object (the answer of POST
 * /v1/openai/chat/completions). Its id is the generation's, so GET /v1/generations/{id} shows its
 * credits. `finish_reason` is `length` when the model wrote as many tokens as it was allowed.
 * Token counts are the provider's (0 where it reported none).
 */
export function presentOpenAiChatCompletion(gen: GenerationRow, maxTokens: number) {
  const promptTokens = gen.usage?.input_tokens ?? 0;
  const completionTokens = gen.usage?.output_tokens ?? 0;
  return {
    id: gen.id,
    object: 'chat.completion' as const,
    created: Math.floor(gen.created_at.getTime() / 1000),
    model: gen.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content: gen.output_text ?? '', refusal: null },
        logprobs: null,
        finish_reason: completionTokens >= maxTokens ? ('length' as const) : ('stop' as const),
      },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** An OpenAI-style model object for GET /v1/openai/models. */
export function presentOpenAiModel(slug: string, provider: string) {
  return { id: slug, object: 'model' as const, created: 0, owned_by: provider };
}
