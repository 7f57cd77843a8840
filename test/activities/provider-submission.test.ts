import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import type { GenerationInput, Submission } from '../../workflows/definitions';
import { createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// A provider submission happens once per generation, however often its step runs.

function pending(submission: Submission): { providerJobId: string } {
  assert.equal(submission.state, 'pending');
  return submission as Extract<Submission, { state: 'pending' }>;
}

describe('provider submissions', () => {
  async function admittedVideo() {
    const org = await createOrganization({ credits: 10_000 });
    const key = await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first('id');
    const input: GenerationInput = {
      generationId: newId('gen'),
      organizationId: org.id,
      apiKeyId: key.id,
      environment: 'live',
      modality: 'video',
      model: 'hailuo-02',
      prompt: 'once',
      params: {},
      estimatedCredits: 100,
      timeouts: DEFAULT_GENERATION_TIMEOUTS,
      plan: 'pro',
      admitBy: Date.now() + 60_000,
    };
    const activities = createActivities({
      knex: stack().knex,
      repos: stack().repos,
      storage: stack().apiDeps.storage,
      providers: createProviderRegistry({ simulator: createSimulator({ asyncLatencyMs: 60_000 }), providerMode: 'simulated' }),
    });
    const env = new MockActivityEnvironment();
    assert.deepEqual(await env.run(activities.reserveCredits, input), { admitted: true });
    return { org, input, activities, env };
  }

  it('a re-run of submitToProvider returns the job it recorded', async () => {
    const { org, input, activities, env } = await admittedVideo();
    const first = pending(await env.run(activities.submitToProvider, input));
    assert.equal((await stack().repos.generations.findById(input.generationId))?.provider_job_id, first.providerJobId);
    const again = await env.run(activities.submitToProvider, input);
    assert.deepEqual(again, { state: 'pending', providerJobId: first.providerJobId });
    await env.run(activities.refundCredits, { generationId: input.generationId, status: 'failed' as const });
    await assertLedgerBalanced(org.id);
  });

  it('a submission whose job id was never recorded is answered by the provider with the same job (idempotency key)', async () => {
    const { org, input, activities, env } = await admittedVideo();
    const first = pending(await env.run(activities.submitToProvider, input));
    // As if the worker died between the provider's answer and recording it.
    await stack().knex('generations').where({ id: input.generationId }).update({ provider_job_id: null });
    const again = pending(await env.run(activities.submitToProvider, input));
    assert.equal(again.providerJobId, first.providerJobId);
    await env.run(activities.refundCredits, { generationId: input.generationId, status: 'failed' as const });
    await assertLedgerBalanced(org.id);
  });

  it('heartbeats while it submits', async () => {
    const { input, activities, env } = await admittedVideo();
    let beats = 0;
    env.on('heartbeat', () => (beats += 1));
    await env.run(activities.submitToProvider, input);
    assert.ok(beats >= 2, `heartbeats: ${beats}`);
    await env.run(activities.refundCredits, { generationId: input.generationId, status: 'failed' as const });
  });
});
