import assert from 'node:assert/strict';
import { createRealAdapters } from '../../../activities/providers/real-adapters';
import { ProviderError, type ProviderJob } from '../../../activities/providers/types';
import { listModels } from '../../../domain/catalog';
import { MODALITIES } from '../../../domain/modalities';
import { OUTPUT_SIZE_CAPS } from '../../../domain/output-limits';
import { REAL_PROVIDERS, servesModality } from '../../../domain/providers';

// The table MODEL_ROUTES is checked against (domain/providers.ts) agrees with the adapters: each
// adapter refuses a job of a modality the table says it does not serve, before calling anyone.
// The credentials point at a closed port, so a call would fail as provider_unreachable instead.

describe('what each adapter serves', () => {
  const adapters = createRealAdapters({ requestTimeoutMs: 2_000 });
  const ctx = {
    signal: new AbortController().signal,
    readInput: async () => Buffer.from('input'),
    inputUrl: async () => 'http://127.0.0.1:9/input',
    outputCapBytes: OUTPUT_SIZE_CAPS.image,
  };

  for (const provider of REAL_PROVIDERS) {
    const unserved = MODALITIES.filter((modality) => !servesModality(provider, modality));
    it(`${provider} refuses ${unserved.join(', ')} jobs before any request`, async () => {
      for (const modality of unserved) {
        const model = listModels().find((m) => m.modality === modality)!;
        const job: ProviderJob = {
          generationId: `gen_route_${provider}_${modality}`,
          model,
          prompt: 'a test',
          params: {},
          inputs: {},
          idempotencyKey: `gen_route_${provider}_${modality}:submit`,
          route: { provider, model: 'some/model' },
          credentials: { apiKey: 'key', baseUrl: 'http://127.0.0.1:9' },
        };
        await assert.rejects(adapters[provider].submit(job, ctx), (err: unknown) => {
          assert.ok(err instanceof ProviderError, `${provider}/${modality}: ${String(err)}`);
          assert.deepEqual([err.code, err.retryable], ['provider_rejected', false], `${provider}/${modality}: ${err.message}`);
          return true;
        });
      }
    });
  }
});
