import assert from 'node:assert/strict';
import { findModel } from '../../domain/catalog';
import { admissionCredits } from '../../domain/pricing';
import { simulatedOnly, usableRoutes, type RoutingConfig } from '../../domain/provider-routing';

// Issue 33 item 3: a live key never pays for simulated output. The routes decide it, and pricing
// asks them (admissionCredits), the one rule for the sandbox and for simulated live output alike.

const flux = findModel('flux-schnell')!;
const providersOf = (routes: { provider: string }[]) => routes.map((r) => r.provider);

describe('provider routing and the price of simulated output', () => {
  it('runs a live request on its configured real routes, or on the simulator only in simulated mode', () => {
    const live: RoutingConfig = { providerMode: 'live', configuredProviders: [] };
    const simulated: RoutingConfig = { providerMode: 'simulated', configuredProviders: [] };
    assert.deepEqual(usableRoutes(flux, 'live', live), []);
    assert.deepEqual(providersOf(usableRoutes(flux, 'live', simulated)), ['simulator']);
    assert.deepEqual(providersOf(usableRoutes(flux, 'live', { ...live, configuredProviders: ['replicate'] })), ['replicate']);
    assert.deepEqual(providersOf(usableRoutes(flux, 'test', { ...live, configuredProviders: ['fal'] })), ['simulator']);
  });

  it("never puts the simulator among a paid request's routes, MODEL_ROUTES or not", () => {
    const modelRoutes = {
      'flux-schnell': [
        { provider: 'fal' as const, model: 'fal-ai/flux/schnell' },
        { provider: 'simulator' as const, model: 'flux-schnell' },
      ],
    };
    for (const providerMode of ['live', 'simulated'] as const) {
      const routes = usableRoutes(flux, 'live', { providerMode, configuredProviders: ['fal'], modelRoutes });
      assert.deepEqual(providersOf(routes), ['fal'], providerMode);
      assert.equal(admissionCredits(40, routes), 40);
    }
    // With fal not configured, MODEL_ROUTES' simulator route serves live keys in simulated mode only.
    assert.deepEqual(usableRoutes(flux, 'live', { providerMode: 'live', configuredProviders: [], modelRoutes }), []);
    assert.deepEqual(providersOf(usableRoutes(flux, 'live', { providerMode: 'simulated', configuredProviders: [], modelRoutes })), ['simulator']);
  });

  it('prices simulator-only routes at 0 and any real route at the estimate', () => {
    assert.equal(admissionCredits(40, [{ provider: 'simulator', model: 'flux-schnell' }]), 0);
    assert.equal(admissionCredits(40, [{ provider: 'fal', model: 'fal-ai/flux/schnell', key: 'platform' }]), 40);
    assert.equal(simulatedOnly([]), false, 'no route at all is a refusal, not a free run');
  });
});
