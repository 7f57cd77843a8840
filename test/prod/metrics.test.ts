import assert from 'node:assert/strict';
import { waitFor } from '../helpers/http';
import { deltaBy, scrape } from '../helpers/prometheus-text';
import { prodEmbeddedWorker, prodStack } from './fixture';
import { createProdOrganization, prodCall } from './helpers';

// Every process of the production topology serves its own GET /metrics on its own port (what
// `npm run stack:prod` prints), counts what it did itself, and the public ports serve none.

const REQUESTS = 'generation_service_http_requests_total';
const FINISHED = 'generation_service_generations_finished_total';
const STARTS = 'generation_service_workflow_starts_total';

describe('metrics of each process', function () {
  this.timeout(60_000);

  it("serves each API's and each worker's metrics on its own port, each with the Temporal SDK's of its own workers, and each API counts its own requests", async () => {
    const { metricsUrls, apiUrls } = prodStack();
    assert.equal(metricsUrls.apis.length, apiUrls.length);
    assert.equal(new Set([...metricsUrls.apis, ...metricsUrls.workers]).size, metricsUrls.apis.length + metricsUrls.workers.length);
    for (const url of apiUrls) assert.equal((await prodCall('GET', '/metrics', { baseUrl: url })).status, 404, `${url}/metrics`);

    const org = await createProdOrganization();
    const before = { apis: await Promise.all(metricsUrls.apis.map(scrape)), workers: await Promise.all(metricsUrls.workers.map(scrape)) };
    for (const baseUrl of apiUrls) {
      const res = await prodCall('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'one per process' }, baseUrl });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const afterApis = await Promise.all(metricsUrls.apis.map(scrape));
    afterApis.forEach((after, i) => {
      assert.deepEqual(deltaBy(before.apis[i]!, after, REQUESTS, ['route', 'status']), { 'route=/v1/images,status=200': 1 }, `api-${i + 1}`);
      // API_EMBEDDED_WORKER (test/prod/fixture.ts): the image started eagerly on the API's own worker;
      // without it, with Update-with-Start, which the starts counter does not count.
      const starts = prodEmbeddedWorker() ? { 'kind=generation,eager=true': 1 } : {};
      assert.deepEqual(deltaBy(before.apis[i]!, after, STARTS, ['kind', 'eager']), starts, `api-${i + 1}'s start`);
    });
    // The processes between them finished both (another test's jobs may still be finishing): an
    // eagerly started job runs on its API's own worker, one that found no free slot there on a worker's.
    await waitFor(async () => {
      const urls = [...metricsUrls.apis, ...metricsUrls.workers];
      const befores = [...before.apis, ...before.workers];
      const afters = await Promise.all(urls.map(scrape));
      const finished = afters.reduce((sum, after, i) => sum + (deltaBy(befores[i]!, after, FINISHED, ['modality', 'status'])['modality=image,status=succeeded'] ?? 0), 0);
      return finished >= 2;
    });
    for (const url of metricsUrls.workers) {
      const text = await (await fetch(url)).text();
      assert.match(text, /^temporal_worker_task_slots_available\{/m, `${url} carries the SDK's metrics`);
      assert.match(text, new RegExp(`^# TYPE ${FINISHED} counter$`, 'm'), `${url} carries ours`);
    }
    // API_EMBEDDED_WORKER: each API's answer carries the SDK's metrics of its own sync worker, and of
    // no other queue (those of the worker processes are theirs).
    const { syncTaskQueue, taskQueue } = prodStack().config;
    for (const url of metricsUrls.apis) {
      const samples = await scrape(url);
      const sdk = samples.filter((s) => s.name.startsWith('temporal_'));
      if (!prodEmbeddedWorker()) {
        assert.deepEqual(sdk, [], `${url}: no worker in the API, no SDK metrics`);
        continue;
      }
      const pollers = sdk.filter((s) => s.name === 'temporal_num_pollers' && s.labels.task_queue === syncTaskQueue);
      assert.ok(pollers.length > 0, `${url} carries temporal_num_pollers of ${syncTaskQueue}, among ${[...new Set(sdk.map((s) => s.name))].join(', ')}`);
      assert.ok(
        sdk.some((s) => s.name === 'temporal_worker_task_slots_available' && s.labels.task_queue === syncTaskQueue),
        `${url}: its sync worker's slots`,
      );
      assert.ok(!sdk.some((s) => s.labels.task_queue === taskQueue), `${url}: none of ${taskQueue}, which only the worker processes poll`);
      assert.ok(
        samples.some((s) => s.name === REQUESTS),
        `${url} carries ours`,
      );
    }
  });
});
