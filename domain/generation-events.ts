import type { GenerationStatus } from './generation-status';

// The events a generation emits (spec §6) and their `data` payloads (spec §2 envelope).

export type GenerationEventType = 'generation.completed' | 'generation.failed';

export interface GenerationEventSubject {
  id: string;
  modality: string;
  status: GenerationStatus;
  charged_credits: number;
}

/** The event a generation's terminal state emits, or undefined (a cancel emits none). */
export function generationEvent(gen: GenerationEventSubject): { type: GenerationEventType; data: Record<string, unknown> } | undefined {
  const type: GenerationEventType | undefined = gen.status === 'succeeded' ? 'generation.completed' : gen.status === 'failed' ? 'generation.failed' : undefined;
  if (!type) return undefined;
  return {
    type,
    data: { generation_id: gen.id, modality: gen.modality, status: gen.status, charged_credits: gen.charged_credits },
  };
}
