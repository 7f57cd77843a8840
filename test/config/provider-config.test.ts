import assert from 'node:assert/strict';
import { loadConfig } from '../../config';
import { providerModeLine } from '../../embedded/provider-mode-line';

// Decisions §7: each provider is optional, and one without its key is not configured.

describe('provider settings', () => {
  it('configures a provider with its key, at its default base URL unless one is given', () => {
    const config = loadConfig({ FAL_KEY: 'fal-key', REPLICATE_API_TOKEN: 'r8_token', REPLICATE_BASE_URL: 'http://127.0.0.1:9/v1/' });
    assert.deepEqual(config.providerCredentials.fal, { apiKey: 'fal-key', baseUrl: 'https://queue.fal.run' });
    assert.deepEqual(config.providerCredentials.replicate, { apiKey: 'r8_token', baseUrl: 'http://127.0.0.1:9/v1' });
    assert.equal(config.providerCredentials.openai, undefined);
  });

  it('configures an OpenAI-compatible server only with its base URL and its key', () => {
    const urlOnly = loadConfig({ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1' });
    assert.equal(urlOnly.providerCredentials.openai_compatible, undefined, 'no key, not configured');
    // The base URL alone still lets an organization bring its own key for that server.
    assert.equal(urlOnly.providerBaseUrls.openai_compatible, 'http://127.0.0.1:11434/v1');
    const both = loadConfig({ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_COMPATIBLE_API_KEY: 'ollama' });
    assert.deepEqual(both.providerCredentials.openai_compatible, { apiKey: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1' });
    assert.equal(loadConfig({ OPENAI_COMPATIBLE_API_KEY: 'key' }).providerCredentials.openai_compatible, undefined, 'a key without a server');
  });
});

describe('PROVIDER_MODE (issue 33: a live key never pays for simulated output)', () => {
  it('is live on every start but the embedded one, simulated there, and always what the operator sets', () => {
    assert.equal(loadConfig({}).providerMode, 'live');
    assert.equal(loadConfig({ FAL_KEY: 'fal-key' }, { embedded: false }).providerMode, 'live');
    assert.equal(loadConfig({}, { embedded: true }).providerMode, 'simulated');
    assert.equal(loadConfig({ PROVIDER_MODE: 'live' }, { embedded: true }).providerMode, 'live');
    assert.equal(loadConfig({ PROVIDER_MODE: 'simulated' }).providerMode, 'simulated');
    assert.throws(() => loadConfig({ PROVIDER_MODE: 'on' }), /PROVIDER_MODE/);
  });

  it('is printed at start-up with the providers that have credentials', () => {
    const embedded = providerModeLine(loadConfig({}, { embedded: true }));
    assert.match(embedded, /no provider configured; PROVIDER_MODE=simulated: live keys run models without credentials on the simulator, for 0 credits/);
    assert.match(providerModeLine(loadConfig({ FAL_KEY: 'fal-key' })), /fal configured; PROVIDER_MODE=live: models without credentials answer 503 to live keys/);
  });
});
