import assert from 'node:assert/strict';
import { waitFor } from '../helpers/http';
import { deltaBy, scrape } from '../helpers/prometheus-text';
import { prodEmbeddedWorker, prodStack, prodTemporal } from './fixture';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodGenerationIds, prodLedgerKinds, waitForProdGeneration, workerIdentityPrefix } from './helpers';

// An API process SIGKILLed while its own sync worker (API_EMBEDDED_WORKER, test/prod/fixture.ts)
// runs a job it started eagerly: the workflow task it held times out (10 s) and Temporal hands it
// to another worker polling the sync queue, which replays the workflow and finishes the job.
// The reservation it finds is the one already committed; the job is charged once.

describe('an API process SIGKILLed mid-request on the production topology', function () {
  this.timeout(120_000);
  // Whatever happens, the next test file finds both APIs running.
  after(async () => {
    for (const api of prodStack().apis) if (!api.alive()) await api.restart();
  });

  it('leaves the sync job its own worker was running to another worker after the task timeout: finished once, charged once', async () => {
    const { apis, apiUrls, metricsUrls } = prodStack();
    const victim = apis[0]!;
    const org = await createProdOrganization();
    const before = await scrape(metricsUrls.apis[0]!);
    const cutOff = prodCall('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'cut off #slow:4000' }, baseUrl: apiUrls[0]! }).then(
      (res) => ({ answered: res.status }),
      () => ({ answered: 'no answer' as const }),
    );
    // Admitted: the reservation's statement wrote the row, on the victim's own worker.
    const [id] = await waitFor(
      async () => {
        const ids = await prodGenerationIds(org.id);
        return ids.length > 0 && ids;
      },
      10_000,
      'the admission',
    );
    // Without API_EMBEDDED_WORKER the job runs on a worker process from the start, and the kill only cuts its answer off.
    const started = prodEmbeddedWorker() ? { 'eager=true': 1 } : {};
    assert.deepEqual(deltaBy(before, await scrape(metricsUrls.apis[0]!), 'generation_service_workflow_starts_total', ['eager']), started, 'started eagerly');
    await victim.kill('SIGKILL');
    assert.deepEqual(await cutOff, { answered: 'no answer' });

    // Asked of the surviving API: the round-robin proxy still sends every other request to the dead one.
    const done = await waitForProdGeneration(id!, org.liveKey, 60_000, apiUrls[1]!);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal(done.charged_credits, done.reserved_credits);
    assert.deepEqual(await prodLedgerKinds(id!), ['reserve', 'capture']);
    const events = (await prodTemporal().workflow.getHandle(id!).fetchHistory()).events ?? [];
    const finisher = events.find((e) => e.workflowTaskCompletedEventAttributes)?.workflowTaskCompletedEventAttributes?.identity ?? '';
    assert.ok(!finisher.startsWith(workerIdentityPrefix(victim)), `finished by ${finisher}, not by the killed API ${victim.pid}`);
    const balance = await assertProdLedgerBalanced(org.id);
    assert.equal(balance.availableCredits, 100_000 - done.charged_credits);

    await victim.restart();
    const after = await prodCall('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'after the restart' }, baseUrl: apiUrls[0]! });
    assert.equal(after.status, 200, JSON.stringify(after.body));
    await assertProdLedgerBalanced(org.id);
  });
});
