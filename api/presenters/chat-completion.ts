import type { GenerationRow } from '../../db/repos/generations';

/** The statuses a Chat completion can have (spec §3 "Chat status"). */
export type ChatCompletionStatus = 'succeeded' | 'failed';

/**
 * Whether POST /v1/chat answers with a Chat completion: only a finished chat that succeeded or
 * failed. A chat cancelled while the request waited is answered as its Generation (decisions §5),
 * as is one still running at the end of the sync window (202).
 */
export function isChatCompletion(gen: GenerationRow): gen is GenerationRow & { status: ChatCompletionStatus } {
  return gen.status === 'succeeded' || gen.status === 'failed';
}

/** The wire shape of a Chat completion (spec §2), the answer of POST /v1/chat. */
export function presentChatCompletion(gen: GenerationRow & { status: ChatCompletionStatus }) {
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
