import assert from 'node:assert/strict';
import { gatewayOverheadMs } from '../../api/gateway-overhead';

// X-Gateway-Overhead-Ms's arithmetic (api/gateway-overhead.ts); test/api/pricing-snapshot.test.ts
// checks the header on real sync answers.

describe('gatewayOverheadMs', () => {
  it('subtracts every recorded provider call, failed ones included, and rounds to whole milliseconds', () => {
    const attempts = [
      { provider: 'fal', model: 'm', outcome: 'failed' as const, error_code: 'provider_error', duration_ms: 400 },
      { provider: 'replicate', model: 'm', outcome: 'succeeded' as const, duration_ms: 1_200 },
    ];
    assert.equal(gatewayOverheadMs(1_750.4, { attempts }), 150);
  });

  it('is the whole time when no provider was called (a cache hit), and never below 0', () => {
    assert.equal(gatewayOverheadMs(12.6, { attempts: [] }), 13);
    assert.equal(gatewayOverheadMs(12.6, {}), 13);
    // The database's clock measured the call a little longer than the API's saw the request.
    assert.equal(gatewayOverheadMs(990, { attempts: [{ provider: 'fal', model: 'm', outcome: 'succeeded', duration_ms: 1_000 }] }), 0);
  });
});
