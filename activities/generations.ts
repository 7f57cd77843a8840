import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Repos } from '../db/repos';
import { findModel } from '../domain/catalog';
import { CALLBACK_EXPIRY_MARGIN_MS } from '../lib/callback-token';
import { newId } from '../lib/ids';
import type { Storage } from '../storage/types';
import type { GeneratedFile, GenerationInput, ProviderOutcome, Submission } from '../workflows/definitions';
import type { ProviderRegistry } from './providers/registry';
import { ProviderError, type ProviderAdapter, type ProviderContext, type ProviderJob, type ProviderResult } from './providers/types';

export const PROVIDER_ERROR_TYPE = 'ProviderError';
/** A provider failure a retry may cure (rate limited, 5xx, timeout): not in nonRetryableErrorTypes. */
export const PROVIDER_TRANSIENT_ERROR_TYPE = 'ProviderTransientError';

/** Longest wait between two polls of a provider job, whatever the provider suggests. */
const MAX_POLL_INTERVAL_MS = 5_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;

// The provider steps of a generation. Sync modalities run `runProvider` as one local activity
// (submit, and poll inline if the provider queues). Async modalities run `submitToProvider`, then
// `awaitProviderJob`, a heartbeating activity that polls until the job is done: a worker that dies
// while polling is noticed by the heartbeat timeout and another worker resumes polling the same
// provider job. Files go to storage inside the step that produced them; only their rows travel
// through Temporal.

export function createGenerationActivities(deps: {
  repos: Repos;
  storage: Storage;
  providers: ProviderRegistry;
  /** The signed callback URL of a generation, when the API can receive callbacks. */
  callbackUrlFor?: (generationId: string, expiresAt: Date) => string;
}) {
  const { repos, storage, providers } = deps;

  function jobOf(input: GenerationInput): { job: ProviderJob; adapter: ProviderAdapter } {
    const model = findModel(input.model);
    if (!model) {
      throw ApplicationFailure.nonRetryable(`model ${input.model} left the catalog`, PROVIDER_ERROR_TYPE, { code: 'unknown_model' });
    }
    const job: ProviderJob = {
      generationId: input.generationId,
      model,
      prompt: input.prompt,
      params: input.params,
      inputs: input.inputs ?? {},
      // One submission per generation, however often the step runs: a provider that honours the
      // key answers a repeat with the job it already has.
      idempotencyKey: providerIdempotencyKey(input.generationId),
      // The URL expires with the job: its own async deadline, plus a margin for a late callback.
      ...(deps.callbackUrlFor && { callbackUrl: deps.callbackUrlFor(input.generationId, callbackExpiry(input)) }),
    };
    return { job, adapter: providers.adapterFor(model, input.environment) };
  }

  function contextOf(job: ProviderJob): ProviderContext {
    const ctx = Context.current();
    return {
      // A local activity has no heartbeat to send: its worker keeps the workflow task alive.
      heartbeat: () => (ctx.info.isLocal ? undefined : ctx.heartbeat()),
      signal: ctx.cancellationSignal,
      async readInput(name) {
        const input = job.inputs[name];
        const data = input ? await storage.read(input.storageKey) : undefined;
        if (!data) throw new ProviderError('invalid_input', `The ${name} input of this generation is missing from storage.`);
        return data;
      },
    };
  }

  async function store(generationId: string, result: ProviderResult): Promise<ProviderOutcome> {
    const outputs: GeneratedFile[] = [];
    for (const [position, file] of result.files.entries()) {
      const storageKey = `outputs/${generationId}/${position}.${file.extension}`;
      await storage.put(storageKey, file.data, file.mime);
      outputs.push({
        id: newId('out'),
        position,
        storageKey,
        mime: file.mime,
        ...(file.width !== undefined && { width: file.width }),
        ...(file.height !== undefined && { height: file.height }),
        ...(file.durationS !== undefined && { durationS: file.durationS }),
      });
    }
    return { outputs, ...(result.text !== undefined && { text: result.text }), ...(result.usage && { usage: result.usage }) };
  }

  async function pollUntilDone(adapter: ProviderAdapter, job: ProviderJob, providerJobId: string, ctx: ProviderContext): Promise<ProviderResult> {
    for (;;) {
      ctx.heartbeat();
      const status = await adapter.poll(job, providerJobId, ctx);
      if (status.state === 'done') return status.result;
      const wait = Math.min(MAX_POLL_INTERVAL_MS, Math.max(10, status.pollAfterMs ?? DEFAULT_POLL_INTERVAL_MS));
      await sleep(wait, undefined, { signal: ctx.signal });
    }
  }

  return {
    /** Sync modalities: the whole provider call, its files stored. */
    async runProvider(input: GenerationInput): Promise<ProviderOutcome> {
      return asTemporalFailure(async () => {
        const { job, adapter } = jobOf(input);
        await repos.generations.markRunning(input.generationId);
        const ctx = contextOf(job);
        const submitted = await adapter.submit(job, ctx);
        const result = submitted.state === 'done' ? submitted.result : await pollUntilDone(adapter, job, submitted.providerJobId, ctx);
        return store(input.generationId, result);
      });
    },

    /**
     * Async modalities, step 1: hand the job to the provider and remember its job id. A re-run (its
     * worker died, or the answer was lost) first looks for the job it recorded, and otherwise
     * submits with the same idempotency key, so the provider runs the generation once.
     */
    async submitToProvider(input: GenerationInput): Promise<Submission> {
      return asTemporalFailure(async () => {
        const { job, adapter } = jobOf(input);
        const ctx = contextOf(job);
        ctx.heartbeat();
        const recorded = (await repos.generations.findById(input.generationId))?.provider_job_id;
        if (recorded) return { state: 'pending', providerJobId: recorded };
        await repos.generations.markRunning(input.generationId);
        ctx.heartbeat();
        const submitted = await adapter.submit(job, ctx);
        ctx.heartbeat();
        if (submitted.state === 'done') return { state: 'done', outcome: await store(input.generationId, submitted.result) };
        await repos.generations.recordProviderJob(input.generationId, submitted.providerJobId);
        return { state: 'pending', providerJobId: submitted.providerJobId };
      });
    },

    /** Async modalities, step 2: poll (heartbeating) until the provider is done, then store its files. */
    async awaitProviderJob(input: GenerationInput, providerJobId: string): Promise<ProviderOutcome> {
      return asTemporalFailure(async () => {
        const { job, adapter } = jobOf(input);
        const result = await pollUntilDone(adapter, job, providerJobId, contextOf(job));
        return store(input.generationId, result);
      });
    },

    /** A cancelled generation: ask the provider to stop (best effort). */
    async cancelProviderJob(input: GenerationInput, providerJobId: string): Promise<void> {
      const { job, adapter } = jobOf(input);
      await adapter.cancel(job, providerJobId);
    },
  };
}

/** When a job's callback URL stops working: the job's own deadline plus a margin. */
function callbackExpiry(input: GenerationInput): Date {
  return new Date(Date.now() + input.timeouts.asyncJobTimeoutMs + CALLBACK_EXPIRY_MARGIN_MS);
}

/** The idempotency key of a generation's provider submission: stable across retries and workers. */
export function providerIdempotencyKey(generationId: string): string {
  return `${generationId}:submit`;
}

/** Provider errors become Temporal failures that say whether a retry may help. */
async function asTemporalFailure<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProviderError) {
      const details = { code: err.code };
      throw err.retryable
        ? ApplicationFailure.retryable(err.message, PROVIDER_TRANSIENT_ERROR_TYPE, details)
        : ApplicationFailure.nonRetryable(err.message, PROVIDER_ERROR_TYPE, details);
    }
    throw err;
  }
}
