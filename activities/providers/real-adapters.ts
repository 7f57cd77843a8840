import type { RealProvider } from '../../domain/providers';
import type { Logger } from '../../lib/logger';
import { createAnthropicAdapter } from './anthropic';
import { createElevenLabsAdapter } from './elevenlabs';
import { createFalAdapter } from './fal/adapter';
import { createOpenAIAdapter, createOpenAICompatibleAdapter } from './openai';
import { createReplicateAdapter } from './replicate';
import type { AdapterOptions, ProviderAdapter } from './types';

/** One adapter per real provider (decisions §7); credentials come with each job. */
export function createRealAdapters(opts: AdapterOptions & { logger?: Logger }): Record<RealProvider, ProviderAdapter> {
  return {
    openai: createOpenAIAdapter(opts),
    openai_compatible: createOpenAICompatibleAdapter(opts),
    anthropic: createAnthropicAdapter(opts),
    fal: createFalAdapter(opts),
    replicate: createReplicateAdapter(opts),
    elevenlabs: createElevenLabsAdapter(opts),
  };
}
