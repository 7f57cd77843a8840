import { type ProviderContext, type ProviderJob, type ProviderResult, type SubmitResult } from '../../activities/providers/types';
import { findModel } from '../../domain/catalog';
import { OUTPUT_SIZE_CAPS } from '../../domain/output-limits';

// Jobs and contexts for the OpenAI and Anthropic adapter tests: a real catalog model, its catalog
// route, and credentials pointing at a fake server.

let jobs = 0;

export function jobFor(slug: string, fake: { apiKey: string; baseUrl: string }, over: Partial<ProviderJob> = {}): ProviderJob {
  const model = findModel(slug);
  if (!model) throw new Error(`no catalog model ${slug}`);
  const route = model.routes[0]!;
  return {
    generationId: `gen_fake_${++jobs}`,
    model,
    prompt: 'a lighthouse at dusk',
    params: {},
    inputs: {},
    idempotencyKey: `idem_fake_${jobs}`,
    route: { provider: route.provider, model: route.model },
    credentials: { apiKey: fake.apiKey, baseUrl: fake.baseUrl },
    ...over,
  };
}

/** A context as the activity gives it: no inputs unless given, a signal the test may abort. */
export function plainContext(over: Partial<ProviderContext> = {}): ProviderContext {
  return {
    signal: new AbortController().signal,
    readInput: async (name) => {
      throw new Error(`this test gives no ${name} input`);
    },
    inputUrl: async (name) => {
      throw new Error(`this test gives no ${name} input URL`);
    },
    outputCapBytes: OUTPUT_SIZE_CAPS.image,
    ...over,
  };
}

/** The result of a provider that answers at once; fails the test when it queued instead. */
export function doneResult(submitted: SubmitResult): ProviderResult {
  if (submitted.state !== 'done') throw new Error(`expected an answer at once, got ${JSON.stringify(submitted)}`);
  return submitted.result;
}

/** For `assert.rejects`: the adapter failed with this ProviderError code and retryability. */
export { failsWith as providerError } from '../helpers/provider-errors';
