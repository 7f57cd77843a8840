import type { GenerationRow } from '../../db/repos/generations';

/** The wire shape of a Chat completion (spec §2), the answer of POST /v1/chat. */
export function presentChatCompletion(gen: GenerationRow) {
  return {
    id: gen.id,
    object: 'chat.completion' as const,
    status: gen.status,
    modality: 'chat' as const,
    model: gen.model,
    message: { role: 'assistant' as const, content: gen.output_text ?? '' },
    ...(gen.usage && { usage: gen.usage }),
    reserved_credits: gen.reserved_credits,
    charged_credits: gen.charged_credits,
    refunded_credits: gen.refunded_credits,
    ...(gen.status === 'failed' && { error_code: gen.error_code, error_message: gen.error_message }),
    created_at: gen.created_at.toISOString(),
    finished_at: gen.finished_at ? gen.finished_at.toISOString() : null,
  };
}
