import type { ModelEntry } from '../../domain/catalog';
import type { JobInput } from '../../domain/job-input';
import type { ProviderRoute } from '../../domain/providers';
import { storableProviderText } from '../../domain/text-input';

// The one interface every provider adapter implements: the simulator, fal.ai, Replicate, OpenAI
// (and any OpenAI-compatible server), Anthropic and ElevenLabs. It is queue-shaped, like fal.ai's
// queue and Replicate's predictions: submit, then poll until done, and cancel. A provider that
// answers at once (OpenAI chat, ElevenLabs TTS) returns its result from `submit`. Adapters get what
// they need passed in (the route, the credentials); they never read process.env.

// Defined in domain/, which the API imports too; named here as well for the adapters beside it.
export type { JobInput };

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
  /** Which provider serves this attempt, and the provider's own model id (`fal-ai/flux/dev`). */
  route: ProviderRoute;
  /** The key and base URL to call it with: the platform's, or the organization's own (BYOK). */
  credentials: ProviderCredentials;
}

export interface ProviderCredentials {
  apiKey: string;
  /** No trailing slash; the provider's documented default unless configured otherwise. */
  baseUrl: string;
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
  /** True when the provider reported no output tokens and they were counted with a tokenizer. */
  outputTokensEstimated?: boolean;
}

/**
 * A file a real provider made, not yet checked: a URL to fetch (theirs expire), base64 bytes from a
 * JSON answer, or a response body. The gateway streams it into storage under the modality's size
 * cap, checks its type from its bytes, and reads its dimensions and duration from the file itself
 * (activities/providers/ingest-output.ts); `mime` is only what the provider claimed.
 */
export type ProviderFile =
  { kind: 'url'; url: string; mime?: string } | { kind: 'bytes'; data: Buffer; mime?: string } | { kind: 'stream'; body: AsyncIterable<Uint8Array>; mime?: string };

export interface ProviderResult {
  /** The simulator's files are trusted as made; a real adapter's are `ProviderFile`s. */
  files: (ProducedFile | ProviderFile)[];
  /** Chat's answer, or a transcript. */
  text?: string;
  /** What the provider reports it used, where billing depends on it (chat tokens). */
  usage?: ProviderUsage;
}

export type SubmitResult = { state: 'done'; result: ProviderResult } | { state: 'pending'; providerJobId: string; pollAfterMs?: number };

export type PollResult = { state: 'pending'; pollAfterMs?: number } | { state: 'done'; result: ProviderResult };

// An adapter needs no heartbeats: the step that calls it beats from a timer while it runs
// (activities/heartbeats.ts).
export interface ProviderContext {
  /**
   * Aborted when the activity is cancelled or its worker shuts down. A queue provider's submission
   * does not stop on it: the job may be queued already, and its id is what cancels it
   * (activities/submission.ts).
   */
  signal: AbortSignal;
  /** The bytes of one of the job's inputs. */
  readInput(name: string): Promise<Buffer>;
  /**
   * A signed, expiring URL of one of the job's inputs, for providers that take inputs by URL (fal,
   * Replicate). It must be reachable from the provider: PUBLIC_BASE_URL or the S3 bucket.
   */
  inputUrl(name: string): Promise<string>;
  /**
   * The size cap of one output of this job's modality. Files fetched or streamed are cut off there
   * by the gateway; an adapter whose answer carries files inline reads no more than they may take.
   */
  outputCapBytes: number;
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
    readonly opts: {
      /** The provider's Retry-After, in ms: the next try waits at least this long. */
      retryAfterMs?: number;
      /** `gateway` when the failure is ours (storage, a lost input), not the provider's. */
      source?: 'provider' | 'gateway';
      /**
       * Another route may serve the request though a retry on this one cannot: the platform's key
       * for this provider was refused, which says nothing about the request.
       */
      fallsBack?: boolean;
      /**
       * The root cause, for the logs only (`connect ECONNREFUSED 10.0.3.7:8000`): it names internal
       * addresses and hosts, so it never reaches the generation's `error_message`.
       */
      internalDetail?: string;
    } = {},
  ) {
    // The message quotes the provider's own words, and ends up in `error_message`: with a U+0000 in
    // it the refund's update would fail and the job stay stuck (decisions §5: provider text made
    // storable).
    super(storableProviderText(message));
    this.name = 'ProviderError';
  }
}

/** What every real adapter's factory takes. */
export interface AdapterOptions {
  /** How long one HTTP request to the provider may take before it counts as a (retryable) timeout. */
  requestTimeoutMs: number;
}
