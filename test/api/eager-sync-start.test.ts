import assert from 'node:assert/strict';
import { silentLogger } from '../../lib/logger';
import { startSyncWorker } from '../../worker/sync-worker';
import { call, createOrganization } from '../helpers/http';
import { startUntilFallback } from '../helpers/eager-fallback';
import { assertLedgerBalanced } from '../helpers/ledger';
import { deltaBy, scrape } from '../helpers/prometheus-text';
import { providerDoubles } from '../helpers/provider-doubles';
import { startExtraApi, stack } from '../helpers/stack';

// API_EMBEDDED_WORKER (issue 40): the API starts sync generations eagerly, so Temporal hands the
// first workflow task back to the API's own worker on the start call; when that worker has no free
// slot, the start falls back to the sync queue, which the worker processes poll, and still succeeds.

const STARTS = 'generation_service_workflow_starts_total';

async function startsSince(before: Awaited<ReturnType<typeof scrape>>): Promise<Record<string, number>> {
  return deltaBy(before, await scrape(stack().metricsUrls.api), STARTS, ['kind', 'eager']);
}

describe('eager start of sync generations on the API’s own worker', function () {
  this.timeout(60_000);

  before(function () {
    // The suite run with API_EMBEDDED_WORKER=false has no such worker to test.
    if (!stack().apiDeps.syncStarts) this.skip();
  });

  it('starts a sync image and a chat completion eagerly on the sync queue, answered 200 and charged once', async () => {
    const org = await createOrganization({ credits: 1000 });
    const before = await scrape(stack().metricsUrls.api);
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'eager lighthouse' } });
    assert.equal(image.status, 200, JSON.stringify(image.body));
    assert.equal(image.body.status, 'succeeded');
    const chat = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages: [{ content: 'hello #tokens:10' }] } });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    assert.deepEqual(await startsSince(before), { 'kind=generation,eager=true': 2 });
    const started = await stack().temporal.workflow.getHandle(image.body.id).describe();
    assert.equal(started.taskQueue, stack().config.syncTaskQueue);
    const balance = await assertLedgerBalanced(org.id);
    assert.equal(balance.availableCredits, 1000 - image.body.charged_credits - chat.body.charged_credits);
  });

  it('falls back to the sync queue when the API’s worker has no free slot: not eager, still answered 200', async () => {
    const { config, workflowBundle } = stack();
    // A few slots, some of which its pollers hold while they wait for a task (a normal and a sticky
    // poll each): slow jobs started one after another fill what is free, and the next start finds none.
    const slots = 8;
    const worker = await startSyncWorker(config, silentLogger, {
      address: config.temporalAddress!,
      databaseUrl: config.databaseUrl!,
      workflowBundle,
      providerAdapters: providerDoubles,
      slots,
    });
    const api = await startExtraApi({ syncStarts: worker });
    try {
      const org = await createOrganization({ credits: 1000 });
      const { jobs } = await startUntilFallback({
        metricsUrl: stack().metricsUrls.api,
        slots,
        send: (i) => call('POST', '/v1/images', { key: org.liveKey, baseUrl: api.url, body: { model: 'flux-schnell', prompt: `hold a slot ${i} #slow:4000` } }),
      });
      let charged = 0;
      for (const job of jobs) {
        const res = await job;
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.status, 'succeeded');
        charged += res.body.charged_credits;
      }
      const balance = await assertLedgerBalanced(org.id);
      assert.equal(balance.availableCredits, 1000 - charged, 'each charged once');
    } finally {
      await api.close();
      await worker.stop();
    }
  });
});
