import { createProviderRegistry, type ProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import type { ProviderAdapter, ProviderCredentials } from '../../activities/providers/types';
import { REAL_PROVIDERS, type RealProvider } from '../../domain/providers';

// The real providers, stood in for in-process: each is the simulator under the provider's name, so
// a live request routes to its catalog route (fal for a video), is charged as a real one, and says
// `provider: "fal"`, while the simulator's directives (#fail, #slow:, #tokens:) still steer it.
// A double of systems outside ours, for the test stack and the chaos run; never production code.
// Tests of an adapter's own protocol run it against a fake server instead (test/fakes).

/** Each real provider's settings with a made-up key: what makes the API and the worker route to them. */
export const PROVIDER_DOUBLE_ENV: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: 'sk-openai-double',
  ANTHROPIC_API_KEY: 'sk-ant-double',
  FAL_KEY: 'fal-double',
  REPLICATE_API_TOKEN: 'r8_double',
  ELEVENLABS_API_KEY: 'elevenlabs-double',
  OPENAI_COMPATIBLE_API_KEY: 'compatible-double',
  // No public default for this one: a base URL nobody calls, as the double answers in-process.
  OPENAI_COMPATIBLE_BASE_URL: 'http://openai-compatible.invalid/v1',
};

/** `npm run worker` with these doubles (test/helpers/provider-doubles-worker.ts), for stacks of processes. */
export const PROVIDER_DOUBLES_WORKER = 'test/helpers/provider-doubles-worker.ts';

/** `npm run api` whose own sync worker (API_EMBEDDED_WORKER) has these doubles (test/helpers/provider-doubles-api.ts). */
export const PROVIDER_DOUBLES_API = 'test/helpers/provider-doubles-api.ts';

/** The platform's credentials for every real provider, as configuration would give them. */
export const PROVIDER_DOUBLE_CREDENTIALS: Readonly<Record<RealProvider, ProviderCredentials>> = Object.fromEntries(
  REAL_PROVIDERS.map((provider) => [provider, { apiKey: `${provider}-double`, baseUrl: `http://${provider}.invalid` }]),
) as Record<RealProvider, ProviderCredentials>;

/** Every real provider's adapter, each the given simulator under the provider's name. */
export function providerDoubles(simulator: ProviderAdapter): Record<RealProvider, ProviderAdapter> {
  return Object.fromEntries(REAL_PROVIDERS.map((provider) => [provider, { ...simulator, name: provider }])) as Record<RealProvider, ProviderAdapter>;
}

/**
 * A registry where every real provider is configured and served by `simulator` (a fresh one by
 * default), as is the simulator's own route (the sandbox).
 */
export function providerDoublesRegistry(opts: { simulator?: ProviderAdapter; asyncLatencyMs?: number } = {}): ProviderRegistry {
  const simulator = opts.simulator ?? createSimulator({ asyncLatencyMs: opts.asyncLatencyMs ?? 300 });
  return createProviderRegistry({
    simulator,
    adapters: providerDoubles(simulator),
    platformCredentials: PROVIDER_DOUBLE_CREDENTIALS,
    providerMode: 'live',
  });
}
