import assert from 'node:assert/strict';
import { findModel } from '../../domain/catalog';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import { admitUpdate, type GenerationInput } from '../../workflows/definitions';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// The paths that used to close a generation workflow with credits still reserved.

function inputFor(org: { id: string; apiKeyId: string }, over: Partial<GenerationInput> = {}): GenerationInput {
  return {
    generationId: newId('gen'),
    organizationId: org.id,
    apiKeyId: org.apiKeyId,
    environment: 'live',
    modality: 'image',
    model: 'flux-schnell',
    prompt: 'settlement test',
    params: {},
    estimatedCredits: 10,
    timeouts: DEFAULT_GENERATION_TIMEOUTS,
    plan: 'pro',
    admitBy: Date.now() + 60_000,
    ...over,
  };
}

async function liveKeyId(organizationId: string): Promise<string> {
  const row = await stack().knex('api_keys').where({ organization_id: organizationId, environment: 'live' }).first('id');
  return row.id;
}

describe('settlement that cannot strand money', function () {
  this.timeout(60_000);

  it('a cancel that reaches the workflow together with its admission leaves nothing reserved', async () => {
    const org = await createOrganization({ credits: 1000 });
    const input = inputFor({ id: org.id, apiKeyId: await liveKeyId(org.id) }, { prompt: 'slow #slow:5000' });
    const taskQueue = `cancel-first-${input.generationId}`;
    // No worker polls this queue yet: the start, the admission and the cancel all wait for the
    // first workflow task, which then carries all three, as after a worker crash and replay.
    const start = new WithStartWorkflowOperation('generationWorkflow', { workflowId: input.generationId, taskQueue, args: [input], workflowIdConflictPolicy: 'FAIL' });
    const admission = stack().temporal.workflow.executeUpdateWithStart(admitUpdate, { startWorkflowOperation: start });
    admission.catch(() => undefined);
    const handle = await start.workflowHandle();
    await handle.cancel();
    const worker = await startTestWorker(taskQueue);
    try {
      await handle.result().catch(() => undefined);
    } finally {
      await worker.stop();
    }
    const gen = await stack().repos.generations.findById(input.generationId);
    // Whichever the workflow saw first, no reservation outlives it.
    if (gen) {
      assert.equal(gen.status, 'canceled');
      assert.equal(gen.refunded_credits, gen.reserved_credits);
      assert.deepEqual(await ledgerKinds(input.generationId), ['reserve', 'refund']);
    }
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000, reservedCredits: 0 });
  });

  it('an admission that can never succeed fails at once instead of retrying forever', async () => {
    const org = await createOrganization({ credits: 1000 });
    const input = inputFor({ id: org.id, apiKeyId: await liveKeyId(org.id) }, { estimatedCredits: 1.5 });
    const start = new WithStartWorkflowOperation('generationWorkflow', {
      workflowId: input.generationId,
      taskQueue: stack().config.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'FAIL',
    });
    const started = Date.now();
    await assert.rejects(stack().temporal.workflow.executeUpdateWithStart(admitUpdate, { startWorkflowOperation: start }), WorkflowUpdateFailedError);
    assert.ok(Date.now() - started < 10_000, 'a malformed amount is not retried');
    assert.equal(await (await start.workflowHandle()).result(), 'failed');
    assert.equal(await stack().repos.generations.findById(input.generationId), undefined);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1000, reservedCredits: 0 });
  });

  for (const [modality, path, model, timeouts] of [
    ['sync', '/v1/images', 'flux-dev', { providerStartToCloseMs: 1_500 }],
    ['async', '/v1/videos', 'hailuo-02', { asyncJobTimeoutMs: 1_500 }],
  ] as const) {
    it(`a ${modality} provider that outlives its budget is stopped, fails as provider_timeout and is refunded`, async () => {
      const api = await startExtraApi({ generationTimeouts: { ...DEFAULT_GENERATION_TIMEOUTS, ...timeouts }, syncTimeoutMs: 100 });
      const org = await createOrganization({ credits: 100_000 });
      const res = await call('POST', path, { key: org.liveKey, baseUrl: api.url, body: { model, prompt: 'forever #slow:30000' } });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const done = await waitForGeneration(res.body.id, org.liveKey, ['succeeded', 'failed', 'canceled'], 30_000);
      assert.equal(done.status, 'failed');
      assert.equal(done.error_code, 'provider_timeout');
      // Each call a timeout stopped is in the provenance, once, as provider_timeout: every try of
      // the sync step is a call of its own (its timeout ends it); the async job is one call, which
      // each try resumes until the budget stops it.
      if (modality === 'async') assert.equal(done.attempts.length, 1, JSON.stringify(done.attempts));
      else assert.ok(done.attempts.length >= 2, `one call per try: ${JSON.stringify(done.attempts)}`);
      // On the model's catalog routes (the stack's provider doubles: fal first, then replicate for flux-dev).
      const routes = findModel(model)!.routes;
      for (const attempt of done.attempts) {
        const route = routes.find((r) => r.provider === attempt.provider);
        assert.ok(route, `${attempt.provider} is a route of ${model}`);
        assert.deepEqual(
          { ...attempt, duration_ms: undefined },
          { provider: route.provider, model: route.model, outcome: 'failed', error_code: 'provider_timeout', duration_ms: undefined },
        );
        assert.ok(attempt.duration_ms >= 1_000 && attempt.duration_ms < 30_000, `the call ran until a timeout stopped it: ${attempt.duration_ms} ms`);
      }
      // The step hears of its cancellation after the settlement: what it might still record is not kept.
      await stack().repos.generations.recordAttempt(res.body.id, {
        provider: routes[0]!.provider,
        model: routes[0]!.model,
        outcome: 'failed',
        error_code: 'internal_error',
        duration_ms: 1,
      });
      assert.deepEqual((await stack().repos.generations.findById(res.body.id))!.attempts, done.attempts);
      assert.equal(done.refunded_credits, done.reserved_credits);
      assert.deepEqual(await ledgerKinds(res.body.id), ['reserve', 'refund']);
      if (modality === 'async') {
        const events = (await stack().temporal.workflow.getHandle(res.body.id).fetchHistory()).events ?? [];
        const scheduled = events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
        assert.ok(scheduled.includes('cancelRecordedProviderJob'), `the provider job was cancelled: ${scheduled.join(', ')}`);
      }
      await assertLedgerBalanced(org.id);
      await api.close();
    });
  }
});
