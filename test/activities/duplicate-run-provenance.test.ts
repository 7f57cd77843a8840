import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import type { GenerationInput, ProviderOutcome } from '../../workflows/definitions';
import { createOrganization, waitFor } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// A workflow task that times out while its local activity still runs (an overloaded worker, or the
// API's own worker and a worker process both polling the sync queue) is replayed elsewhere, which
// runs the provider step again: for a while two executors of one generation call the provider. The
// one that settles first wins; the other's call, cancelled with its workflow task, is left open on
// the row. A success must end that call in the provenance as the failure and cancel paths do,
// so every provider call shows in `attempts` (seen in `npm run chaos` with the embedded worker).

describe('provenance when two executors of one generation call the provider', () => {
  const env = new MockActivityEnvironment();
  const loser = new MockActivityEnvironment();
  let activities: ReturnType<typeof createActivities>;

  before(() => {
    const { knex } = stack();
    activities = createActivities({
      knex,
      repos: stack().apiDeps.repos,
      storage: stack().apiDeps.storage,
      providers: createProviderRegistry({ simulator: createSimulator({ asyncLatencyMs: 1_000 }), providerMode: 'simulated' }),
    });
  });

  it('a success ends the other executor’s open call as canceled: every call in attempts, none left open, charged once', async () => {
    const org = await createOrganization({ credits: 1_000 });
    const key = await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first('id');
    const input: GenerationInput = {
      generationId: newId('gen'),
      organizationId: org.id,
      apiKeyId: key.id,
      environment: 'live',
      modality: 'image',
      model: 'flux-schnell',
      prompt: 'a lighthouse at dawn #slow:3000',
      params: {},
      estimatedCredits: 4,
      timeouts: DEFAULT_GENERATION_TIMEOUTS,
      plan: 'pro',
    };
    assert.deepEqual(await env.run(activities.reserveCredits, input), { admitted: true });
    // The first executor's call ends and is recorded; its settlement has not run yet.
    const outcome: ProviderOutcome = await env.run(activities.runProvider, input, 0);
    // The replaying executor runs the step again meanwhile: the row is still running, so it opens a call of its own.
    const duplicate = loser.run(activities.runProvider, input, 0).catch((err: Error) => err);
    await waitFor(async () => (await stack().knex('generations').where({ id: input.generationId }).first('open_attempt')).open_attempt !== null, 10_000, "the duplicate's call");
    // Its workflow task gone, the duplicate's step is cancelled mid-call: nobody records that call.
    loser.cancel();
    assert.ok((await duplicate) instanceof Error);
    assert.notEqual((await stack().knex('generations').where({ id: input.generationId }).first('open_attempt')).open_attempt, null, 'the duplicate left its call open');

    await env.run(activities.captureCredits, { input, outcome });
    const row = await stack().knex('generations').where({ id: input.generationId }).first('status', 'attempts', 'open_attempt', 'charged_credits');
    assert.equal(row.status, 'succeeded');
    assert.equal(row.open_attempt, null);
    assert.deepEqual(
      row.attempts.map((a: { outcome: string; error_code?: string }) => [a.outcome, a.error_code ?? null]),
      [
        ['succeeded', null],
        ['canceled', null],
      ],
    );
    assert.equal(row.charged_credits, 4);
    await assertMoneyInvariants(org.id);
  });
});
