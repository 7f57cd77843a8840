import assert from 'node:assert/strict';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { createKnex } from '../../db/knex';
import { createRepos } from '../../db/repos';
import { DEFAULT_GENERATION_TIMEOUTS } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import type { GenerationInput, ProviderOutcome } from '../../workflows/definitions';
import { createOrganization, type TestOrganization } from '../helpers/http';
import { ledgerKinds } from '../helpers/ledger';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// A generation's settlement (captureCredits, refundCredits) is its terminal status, its outputs,
// its event (the outbox row) and its ledger rows in one transaction of four round trips to
// Postgres: BEGIN; the terminal UPDATE that also locks the reservation; one statement with the
// outputs, the event and the ledger rows; COMMIT (issue 40, item 3: it was six for a chat, seven
// for an image). Each case proves the money moved exactly as before.

/** The SQL the activities send, in order, while `fn` runs. */
async function statementsOf(knex: Knex, fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const listener = (query: { sql: string }) => sent.push(query.sql.replace(/\s+/g, ' ').trim().slice(0, 60));
  knex.on('query', listener);
  try {
    await fn();
  } finally {
    knex.removeListener('query', listener);
  }
  return sent;
}

describe('settlement round trips', () => {
  let knex: Knex;
  let activities: ReturnType<typeof createActivities>;
  const env = new MockActivityEnvironment();

  before(() => {
    // Its own pool, so that only this test's statements are counted.
    knex = createKnex(stack().config.databaseUrl!, { poolMax: 2 });
    activities = createActivities({
      knex,
      repos: createRepos(knex),
      storage: stack().apiDeps.storage,
      providers: createProviderRegistry({ simulator: createSimulator({ asyncLatencyMs: 1_000 }), providerMode: 'simulated' }),
    });
  });
  after(() => knex.destroy());

  async function admitted(org: TestOrganization, opts: { modality: GenerationInput['modality']; model: string; estimatedCredits: number; environment?: 'live' | 'test' }) {
    const environment = opts.environment ?? 'live';
    const key = await stack().knex('api_keys').where({ organization_id: org.id, environment }).first('id');
    const input: GenerationInput = {
      generationId: newId('gen'),
      organizationId: org.id,
      apiKeyId: key.id,
      environment,
      modality: opts.modality,
      model: opts.model,
      prompt: 'a lighthouse at dawn',
      params: {},
      estimatedCredits: opts.estimatedCredits,
      timeouts: DEFAULT_GENERATION_TIMEOUTS,
      plan: 'pro',
    };
    assert.deepEqual(await env.run(activities.reserveCredits, input), { admitted: true });
    return input;
  }

  const events = (generationId: string) => stack().knex('events').where({ subject_id: generationId }).pluck('type');

  it('a chat capture charges its tokens and releases the rest, with its event, in four round trips', async () => {
    const org = await createOrganization({ credits: 10_000 });
    const input = await admitted(org, { modality: 'chat', model: 'llama-3.3-70b', estimatedCredits: 500 });
    const outcome: ProviderOutcome = { outputs: [], text: 'grey, pink, gold', usage: { inputTokens: 12, outputTokens: 5 } };
    const sent = await statementsOf(knex, () => env.run(activities.captureCredits, { input, outcome }));
    assert.equal(sent.length, 4, `BEGIN, finish and lock, outputs/event/ledger, COMMIT; sent: ${JSON.stringify(sent)}`);
    const row = await stack().repos.generations.findById(input.generationId);
    assert.equal(row?.status, 'succeeded');
    assert.ok(row!.charged_credits < 500, `charged on 5 output tokens, not the whole reservation: ${row!.charged_credits}`);
    assert.equal(row!.charged_credits + row!.refunded_credits, 500);
    assert.deepEqual((await ledgerKinds(input.generationId)).sort(), ['capture', 'release', 'reserve']);
    assert.deepEqual(await events(input.generationId), ['generation.completed']);
    await assertMoneyInvariants(org.id);
  });

  it('an image capture writes its outputs in the same statement, still four round trips; a retry moves nothing', async () => {
    const org = await createOrganization({ credits: 10_000 });
    const input = await admitted(org, { modality: 'image', model: 'flux-schnell', estimatedCredits: 40 });
    const file = { id: newId('out'), position: 0, storageKey: `${input.generationId}/0.png`, mime: 'image/png', width: 64, height: 64 };
    const outcome: ProviderOutcome = { outputs: [file] };
    const sent = await statementsOf(knex, () => env.run(activities.captureCredits, { input, outcome }));
    assert.equal(sent.length, 4, JSON.stringify(sent));
    assert.deepEqual(await stack().knex('generation_outputs').where({ generation_id: input.generationId }).pluck('id'), [file.id]);
    assert.deepEqual(await events(input.generationId), ['generation.completed']);
    const before = await assertMoneyInvariants(org.id);
    // A retried activity finds the generation terminal: no lock taken, no row written.
    const retried = await statementsOf(knex, () => env.run(activities.captureCredits, { input, outcome }));
    assert.equal(retried.length, 3, `BEGIN, the finish that finds it terminal, COMMIT; sent: ${JSON.stringify(retried)}`);
    assert.deepEqual(await assertMoneyInvariants(org.id), before);
    // Charged on what its one 64x64 file measures: what it did not use was released.
    const row = await stack().repos.generations.findById(input.generationId);
    assert.equal(row!.charged_credits + row!.refunded_credits, 40);
    assert.deepEqual((await ledgerKinds(input.generationId)).sort(), row!.refunded_credits > 0 ? ['capture', 'release', 'reserve'] : ['capture', 'reserve']);
  });

  it('a refund returns the whole reservation with its event in four round trips, and a capture after it moves nothing', async () => {
    const org = await createOrganization({ credits: 10_000 });
    const input = await admitted(org, { modality: 'image', model: 'flux-schnell', estimatedCredits: 40 });
    const failure = {
      generationId: input.generationId,
      status: 'failed' as const,
      errorCode: 'provider_error',
      errorMessage: 'The provider failed.',
      errorSource: 'provider' as const,
      retryable: true,
    };
    const sent = await statementsOf(knex, () => env.run(activities.refundCredits, failure));
    assert.equal(sent.length, 4, JSON.stringify(sent));
    assert.deepEqual(await events(input.generationId), ['generation.failed']);
    await env.run(activities.captureCredits, { input, outcome: { outputs: [] } });
    assert.equal((await stack().repos.generations.findById(input.generationId))?.status, 'failed');
    assert.deepEqual((await ledgerKinds(input.generationId)).sort(), ['refund', 'reserve']);
    const wallet = await assertMoneyInvariants(org.id);
    assert.deepEqual(wallet, { availableCredits: 10_000, reservedCredits: 0 });
  });

  it('a test-key (sandbox) generation moves no money and still records its event', async () => {
    const org = await createOrganization({ credits: 10_000 });
    const input = await admitted(org, { modality: 'chat', model: 'llama-3.3-70b', estimatedCredits: 500, environment: 'test' });
    const sent = await statementsOf(knex, () => env.run(activities.captureCredits, { input, outcome: { outputs: [], text: 'hi', usage: { outputTokens: 1 } } }));
    assert.equal(sent.length, 4, JSON.stringify(sent));
    assert.deepEqual(await ledgerKinds(input.generationId), []);
    assert.deepEqual(await events(input.generationId), ['generation.completed']);
    assert.deepEqual(await assertMoneyInvariants(org.id), { availableCredits: 10_000, reservedCredits: 0 });
  });
});
