import type { RealProvider } from '../../domain/providers';
import type { Logger } from '../../lib/logger';
import type { AdapterOptions, ProviderAdapter } from './types';

type Options = AdapterOptions & { logger?: Logger };

/**
 * An adapter whose module (and so its vendor SDK) loads on its first call. A worker that never
 * routes to a provider never pays for its SDK: the ElevenLabs SDK alone is about 85 MB of heap.
 */
function lazyAdapter(name: string, load: () => ProviderAdapter): ProviderAdapter {
  let adapter: ProviderAdapter | undefined;
  const get = () => (adapter ??= load());
  return {
    name,
    submit: (job, ctx) => get().submit(job, ctx),
    poll: (job, providerJobId, ctx) => get().poll(job, providerJobId, ctx),
    cancel: (job, providerJobId) => get().cancel(job, providerJobId),
  };
}

/**
 * One adapter per real provider (decisions §7); credentials come with each job. Each module loads
 * on first use (lazyAdapter), hence require() rather than import.
 */
export function createRealAdapters(opts: Options): Record<RealProvider, ProviderAdapter> {
  return {
    openai: lazyAdapter('openai', () => (require('./openai') as typeof import('./openai')).createOpenAIAdapter(opts)),
    openai_compatible: lazyAdapter('openai_compatible', () => (require('./openai') as typeof import('./openai')).createOpenAICompatibleAdapter(opts)),
    anthropic: lazyAdapter('anthropic', () => (require('./anthropic') as typeof import('./anthropic')).createAnthropicAdapter(opts)),
    fal: lazyAdapter('fal', () => (require('./fal/adapter') as typeof import('./fal/adapter')).createFalAdapter(opts)),
    replicate: lazyAdapter('replicate', () => (require('./replicate') as typeof import('./replicate')).createReplicateAdapter(opts)),
    elevenlabs: lazyAdapter('elevenlabs', () => (require('./elevenlabs') as typeof import('./elevenlabs')).createElevenLabsAdapter(opts)),
  };
}
