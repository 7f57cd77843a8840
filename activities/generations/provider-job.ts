// The provider-job context: what every provider step of a generation starts from. The job (the
// generation's model, prompt and inputs on one of its routes, with the route's credentials, its
// idempotency key and callback URL), the adapter that speaks to the route's provider, and the
// ProviderContext an adapter runs in (cancellation, the generation's stored inputs, its output
// cap), with the step's heartbeats beating throughout.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { GenerationRow } from '../../db/repos/generations';
import { CALLBACK_EXPIRY_MARGIN_MS } from '../../domain/callback-token';
import { findModel } from '../../domain/catalog';
import { providerBudgetMs } from '../../domain/generation-timeouts';
import type { Storage } from '../../storage/types';
import type { GenerationInput } from '../../workflows/definitions';
import { beatFromAThirdOfTheTimeout } from '../heartbeats';
import type { ProviderRegistry } from '../providers/registry';
import { ProviderError, type ProviderAdapter, type ProviderContext, type ProviderJob } from '../providers/types';
import { PROVIDER_ERROR_TYPE } from './provider-failures';
import { outputCapOf, type OutputCaps } from './store-outputs';

export interface ProviderJobContext {
  /** The generation's job on one of its routes (the first without a route index), and that route's adapter. */
  jobOf(input: GenerationInput, routeIndex: number | undefined): Promise<{ job: ProviderJob; adapter: ProviderAdapter }>;
  /**
   * Runs one provider step in its context. Its heartbeats beat from a timer through the whole step
   * (activities/heartbeats.ts): the submission and the files' download included, however long one
   * provider call takes, so no adapter keeps a heartbeat timer of its own.
   */
  withProviderContext<T>(job: ProviderJob, step: (ctx: ProviderContext) => Promise<T>): Promise<T>;
}

export function createProviderJobContext(deps: {
  storage: Storage;
  providers: ProviderRegistry;
  /** The signed callback URL of a generation, when the API can receive callbacks. */
  callbackUrlFor?: (generationId: string, expiresAt: Date) => string;
  outputCapsBytes?: OutputCaps;
}): ProviderJobContext {
  const { storage, providers } = deps;

  function contextOf(job: ProviderJob): ProviderContext {
    const ctx = Context.current();
    const stored = (name: string) => {
      const input = job.inputs[name];
      if (!input) throw new ProviderError('invalid_input', `This generation has no ${name} input.`, false, { source: 'gateway' });
      return input;
    };
    return {
      signal: ctx.cancellationSignal,
      async readInput(name) {
        const data = await storage.read(stored(name).storageKey);
        if (!data) throw new ProviderError('invalid_input', `The ${name} input of this generation is missing from storage.`, false, { source: 'gateway' });
        return data;
      },
      inputUrl: async (name) => storage.signedGetUrl(stored(name).storageKey),
      outputCapBytes: outputCapOf(deps.outputCapsBytes, job.model.modality),
    };
  }

  return {
    async jobOf(input, routeIndex) {
      const model = findModel(input.model);
      if (!model) {
        throw ApplicationFailure.nonRetryable(`model ${input.model} left the catalog`, PROVIDER_ERROR_TYPE, { code: 'unknown_model', source: 'gateway' });
      }
      const route = input.routes?.[routeIndex ?? 0] ?? providers.defaultRoute(model, input.environment);
      const job: ProviderJob = {
        generationId: input.generationId,
        model,
        prompt: input.prompt,
        params: input.params,
        inputs: input.inputs ?? {},
        // One submission per generation and route, however often the step runs: a provider that
        // honours the key answers a repeat with the job it already has.
        idempotencyKey: providerIdempotencyKey(input.generationId, routeIndex),
        // The URL expires with the job: its provider budget, plus a margin for a late callback.
        // Sync jobs get one too (a sync image queued at fal would otherwise wait out fal's first
        // 1 s poll): a callback is a hint through Postgres that wakes the poll inside the activity
        // (activities/poll-hints.ts), not a signal, so it never touches the workflow's one task.
        ...(deps.callbackUrlFor && { callbackUrl: deps.callbackUrlFor(input.generationId, callbackExpiry(input)) }),
        route,
        credentials: await providers.credentialsFor(route, input.organizationId),
      };
      return { job, adapter: providers.adapterFor(route) };
    },

    async withProviderContext(job, step) {
      const stopBeating = beatFromAThirdOfTheTimeout(Context.current());
      try {
        return await step(contextOf(job));
      } finally {
        stopBeating();
      }
    },
  };
}

/** Whether the provider job recorded on a generation's row was submitted on this job's route. */
export function onRoute(row: Pick<GenerationRow, 'provider' | 'provider_model'>, job: ProviderJob): boolean {
  return row.provider === job.route.provider && row.provider_model === job.route.model;
}

/** When a job's callback URL stops working: the job's own deadline plus a margin. */
function callbackExpiry(input: GenerationInput): Date {
  return new Date(Date.now() + providerBudgetMs(input.modality, input.timeouts) + CALLBACK_EXPIRY_MARGIN_MS);
}

/** The idempotency key of a generation's provider submission: stable across retries and workers. */
export function providerIdempotencyKey(generationId: string, routeIndex = 0): string {
  return routeIndex === 0 ? `${generationId}:submit` : `${generationId}:submit:${routeIndex}`;
}
