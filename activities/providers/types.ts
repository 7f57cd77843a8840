import type { ModelEntry } from '../../domain/catalog';

// The one interface every provider adapter implements: the simulator now, fal.ai, Replicate,
// OpenAI and the rest later. Adapters get what they need passed in; they never read process.env.

export interface ProviderJob {
  generationId: string;
  model: ModelEntry;
  prompt: string;
  params: Record<string, unknown>;
}

export interface ProducedFile {
  data: Buffer;
  mime: string;
  extension: string;
  width?: number;
  height?: number;
  durationS?: string;
}

export interface ProviderResult {
  files: ProducedFile[];
}

export interface ProviderContext {
  /** Tells Temporal the job is alive; long waits call it at least every few seconds. */
  heartbeat(): void;
  /** Aborted when the activity is cancelled or its worker shuts down. */
  signal: AbortSignal;
}

export interface ProviderAdapter {
  readonly name: string;
  generate(job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult>;
}

/** A provider's business outcome: `retryable` decides whether Temporal tries again. */
export class ProviderError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
