import assert from 'node:assert/strict';
import { startUntilFallback } from '../helpers/eager-fallback';
import { prodEmbeddedWorker, prodStack } from './fixture';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodLedgerKinds } from './helpers';

// An API process whose own sync worker (API_EMBEDDED_WORKER) has no free slot still answers a sync
// image: Temporal refuses the eager start's task to it, the start goes to the sync queue, which the
// worker processes poll, and the job is charged once. The API runs with API_EMBEDDED_WORKER_SLOTS=8
// (test/prod/fixture.ts); slow jobs started one after another through it fill what is free.

const SLOTS = 8;

describe('eager start on the production topology when the API’s own worker is full', function () {
  this.timeout(120_000);
  before(function () {
    // `API_EMBEDDED_WORKER=false npm run test:prod`: no API worker, no eager start to fall back from.
    if (!prodEmbeddedWorker()) this.skip();
  });

  it('falls back to the sync queue: the start beyond the free slots is counted eager="false", answered 200 and charged once', async () => {
    const { apiUrls, metricsUrls } = prodStack();
    const [baseUrl, metricsUrl] = [apiUrls[1]!, metricsUrls.apis[1]!];
    const org = await createProdOrganization();
    const { jobs, starts } = await startUntilFallback({
      metricsUrl,
      slots: SLOTS,
      send: (i) => prodCall('POST', '/v1/images', { key: org.liveKey, baseUrl, body: { model: 'flux-schnell', prompt: `hold a slot ${i} #slow:6000` } }),
    });
    assert.equal(starts['kind=generation,eager=false'], 1, JSON.stringify(starts));

    let charged = 0;
    for (const job of jobs) {
      const res = await job;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, 'succeeded');
      assert.equal(res.body.charged_credits, res.body.reserved_credits);
      assert.deepEqual(await prodLedgerKinds(res.body.id), ['reserve', 'capture'], `${res.body.id} charged once`);
      charged += res.body.charged_credits;
    }
    const balance = await assertProdLedgerBalanced(org.id);
    assert.equal(balance.availableCredits, 100_000 - charged, 'each charged once');
  });
});
