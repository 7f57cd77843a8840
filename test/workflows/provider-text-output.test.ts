import assert from 'node:assert/strict';
import { createRealAdapters } from '../../activities/providers/real-adapters';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { findModel } from '../../domain/catalog';
import { estimateCredits } from '../../domain/pricing';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-server';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { ledgerKinds } from '../helpers/ledger';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { startExtraApi } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// Decisions §5: a provider's text output may hold a U+0000, which no Postgres column stores. It is
// removed before anything is stored, so a job the provider was paid for succeeds and is charged,
// instead of failing on its insert and being refunded. Driven through the real OpenAI SDK against
// a local fake of OpenAI's API (test/fakes/openai-server.ts).

describe('provider text output with a U+0000 (decisions §5)', function () {
  this.timeout(120_000);
  let openai: FakeOpenAI;
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  let api: Awaited<ReturnType<typeof startExtraApi>>;
  let org: TestOrganization;

  before(async () => {
    openai = await startFakeOpenAI();
    const platform = { openai_compatible: { apiKey: openai.apiKey, baseUrl: openai.baseUrl } };
    const providers = createProviderRegistry({
      simulator: createSimulator({ asyncLatencyMs: 300 }),
      adapters: createRealAdapters({ requestTimeoutMs: 5_000 }),
      platformCredentials: platform,
      providerMode: 'live',
    });
    const taskQueue = 'test-provider-text-output';
    worker = await startTestWorker(taskQueue, { providers });
    api = await startExtraApi({ taskQueue, routing: { providerMode: 'live', configuredProviders: Object.keys(platform) } });
    org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
  });

  after(async () => {
    await worker.stop();
    await openai.close();
  });

  it('stores a chat answer with its NUL removed: succeeded and charged, never refunded', async () => {
    const model = findModel('llama-3.3-70b')!;
    openai.script.reply('Paris\u0000 is the capital\u0000.', { inputTokens: 9, outputTokens: 6 });
    const res = await call('POST', '/v1/chat', { key: org.liveKey, baseUrl: api.url, body: { model: model.slug, messages: [{ role: 'user', content: 'capital?' }] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.message.content, 'Paris is the capital.');
    assert.equal(res.body.charged_credits, estimateCredits(model, { outputTokens: 6 }, 'studio'));
    const generation = await call('GET', `/v1/generations/${res.body.id}`, { key: org.liveKey, baseUrl: api.url });
    assert.equal(generation.body.status, 'succeeded');
    // Reserved on max_tokens, charged on the 6 tokens: the rest is released, nothing refunded.
    assert.deepEqual(await ledgerKinds(res.body.id), ['reserve', 'capture', 'release']);
    await assertMoneyInvariants(org.id);
  });

  it("records a provider's error message with its NUL removed: failed and refunded, not stuck running", async () => {
    openai.script.fail(400, { message: 'bad\u0000 request' });
    const res = await call('POST', '/v1/chat', { key: org.liveKey, baseUrl: api.url, body: { model: 'llama-3.3-70b', messages: [{ role: 'user', content: 'capital?' }] } });
    const id = res.body.id ?? res.body.error?.generation_id;
    const failed = await waitFor(
      async () => {
        const gen = await call('GET', `/v1/generations/${id}`, { key: org.liveKey, baseUrl: api.url });
        return gen.body.status === 'failed' ? gen.body : undefined;
      },
      30_000,
      'the generation to fail',
    );
    assert.match(failed.error_message, /bad request/);
    assert.ok(!failed.error_message.includes('\u0000'));
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'refund']);
    await assertMoneyInvariants(org.id);
  });
});
