import type { ProviderAdapter, ProviderContext, ProviderJob, ProviderResult } from '../../activities/providers/types';
import { findModel } from '../../domain/catalog';
import { OUTPUT_SIZE_CAPS } from '../../domain/output-limits';
import type { FakeFal } from './fal-server';

// Jobs and contexts for driving the fal adapter against the fake, as the generation activities
// would: a real catalog entry, routed to its fal model id, with the fake's base URL and key.

/** Where the test context says an input file is (fal would fetch it from there). */
export const inputUrlOf = (name: string) => `https://storage.example.test/inputs/${name}?signature=abc`;

export function falJob(fake: FakeFal, slug: string, over: Partial<ProviderJob> = {}): ProviderJob {
  const model = findModel(slug);
  const route = model?.routes.find((r) => r.provider === 'fal');
  if (!model || !route) throw new Error(`no catalog model ${slug} served by fal`);
  return {
    generationId: `gen_${slug}`,
    model,
    prompt: 'a lighthouse at dusk',
    params: {},
    inputs: {},
    idempotencyKey: `idem_${slug}`,
    route: { provider: 'fal', model: route.model },
    credentials: { apiKey: fake.apiKey, baseUrl: fake.baseUrl },
    ...over,
  };
}

export function testContext(signal = new AbortController().signal): ProviderContext {
  return {
    signal,
    readInput: async () => Buffer.from('input bytes'),
    inputUrl: async (name) => inputUrlOf(name),
    outputCapBytes: OUTPUT_SIZE_CAPS.video,
  };
}

/**
 * Submits, then polls once, from a fresh adapter as another worker would: with the fake's default
 * latency of 0 the request is already done.
 */
export async function runToDone(adapters: readonly [ProviderAdapter, ProviderAdapter], job: ProviderJob, ctx = testContext()): Promise<ProviderResult> {
  const submitted = await adapters[0].submit(job, ctx);
  if (submitted.state === 'done') return submitted.result;
  const polled = await adapters[1].poll(job, submitted.providerJobId, ctx);
  if (polled.state !== 'done') throw new Error(`the fal request ${submitted.providerJobId} is still pending`);
  return polled.result;
}
