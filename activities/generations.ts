import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Repos } from '../db/repos';
import type { OutputRow } from '../db/repos/generations';
import { findModel } from '../domain/catalog';
import { newId } from '../lib/ids';
import type { Storage } from '../storage/types';
import type { GenerationInput } from '../workflows/definitions';
import type { ProviderRegistry } from './providers/registry';
import { ProviderError } from './providers/types';

export const PROVIDER_ERROR_TYPE = 'ProviderError';

export function createGenerationActivities(deps: { repos: Repos; storage: Storage; providers: ProviderRegistry }) {
  const { repos, storage, providers } = deps;
  return {
    /** Runs the model and stores its files; returns what the outputs rows will say. */
    async runProvider(input: GenerationInput): Promise<Omit<OutputRow, 'generation_id'>[]> {
      const ctx = Context.current();
      const model = findModel(input.model);
      if (!model) {
        throw ApplicationFailure.nonRetryable(`model ${input.model} left the catalog`, PROVIDER_ERROR_TYPE, {
          code: 'unknown_model',
        });
      }
      await repos.generations.markRunning(input.generationId);
      try {
        const adapter = providers.adapterFor(model, input.environment);
        const result = await adapter.generate(
          { generationId: input.generationId, model, prompt: input.prompt, params: input.params },
          // A local activity has no heartbeat to send: its worker keeps the workflow task alive.
          { heartbeat: () => (ctx.info.isLocal ? undefined : ctx.heartbeat()), signal: ctx.cancellationSignal },
        );
        const outputs: Omit<OutputRow, 'generation_id'>[] = [];
        for (const [position, file] of result.files.entries()) {
          const storageKey = `outputs/${input.generationId}/${position}.${file.extension}`;
          await storage.put(storageKey, file.data, file.mime);
          outputs.push({
            id: newId('out'),
            position,
            storage_key: storageKey,
            mime: file.mime,
            width: file.width ?? null,
            height: file.height ?? null,
            duration_s: file.durationS ?? null,
          });
        }
        return outputs;
      } catch (err) {
        if (err instanceof ProviderError) {
          const details = { code: err.code };
          throw err.retryable
            ? ApplicationFailure.retryable(err.message, PROVIDER_ERROR_TYPE, details)
            : ApplicationFailure.nonRetryable(err.message, PROVIDER_ERROR_TYPE, details);
        }
        throw err;
      }
    },
  };
}
