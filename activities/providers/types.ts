import type { ModelEntry } from '../../domain/catalog';

// The one interface every provider adapter implements: the simulator now; fal.ai, Replicate,
// OpenAI, ElevenLabs and the rest later. It is queue-shaped, like fal.ai's queue and Replicate's
// predictions: submit, then poll until done, and cancel. A provider that answers at once (OpenAI
// chat, ElevenLabs TTS) returns its result from `submit`. Adapters get what they need passed in;
// they never read process.env.

/** An input file the API fetched and stored (decisions §6), e.g. `image` for `image_url`. */
export interface JobInput {
  storageKey: string;
  contentType: string;
}

export interface ProviderJob {
  generationId: string;
  model: ModelEntry;
  prompt: string;
  params: Record<string, unknown>;
  inputs: Record<string, JobInput>;
  /**
   * The same for every submission of one generation: sent as the provider's idempotency header
   * where it has one, so a repeated submission returns the job already running.
   */
  idempotencyKey: string;
  /** Where a queue-style provider may POST when the job changes (a hint to poll now); optional. */
  callbackUrl?: string;
}

export interface ProducedFile {
  data: Buffer;
  mime: string;
  extension: string;
  width?: number;
  height?: number;
  durationS?: string;
}

export interface ProviderUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface ProviderResult {
  files: ProducedFile[];
  /** Chat's answer, or a transcript. */
  text?: string;
  /** What the provider reports it used, where billing depends on it (chat tokens). */
  usage?: ProviderUsage;
}

export type SubmitResult =
  | { state: 'done'; result: ProviderResult }
  | { state: 'pending'; providerJobId: string; pollAfterMs?: number };

export type PollResult = { state: 'pending'; pollAfterMs?: number } | { state: 'done'; result: ProviderResult };

export interface ProviderContext {
  /** Tells Temporal the job is alive; long waits call it at least every few seconds. */
  heartbeat(): void;
  /** Aborted when the activity is cancelled or its worker shuts down. */
  signal: AbortSignal;
  /** The bytes of one of the job's inputs. */
  readInput(name: string): Promise<Buffer>;
}

export interface ProviderAdapter {
  readonly name: string;
  submit(job: ProviderJob, ctx: ProviderContext): Promise<SubmitResult>;
  poll(job: ProviderJob, providerJobId: string, ctx: ProviderContext): Promise<PollResult>;
  /** Asks the provider to stop a job. Best effort: a job that already finished is left alone. */
  cancel(job: ProviderJob, providerJobId: string): Promise<void>;
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
