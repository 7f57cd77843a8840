import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { ownCredentialsFrom } from '../../activities/providers/own-credentials';
import { createRealAdapters } from '../../activities/providers/real-adapters';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { findModel } from '../../domain/catalog';
import { estimateCredits } from '../../domain/pricing';
import type { RealProvider } from '../../domain/providers';
import { providerSecretsKeys } from '../../config';
import { createSecretBox } from '../../lib/secret-box';
import { startFakeFal, type FakeFal, type FalReceived } from '../fakes/fal-server';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai-server';
import { startFakeReplicate } from '../fakes/replicate-server';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { ledgerKinds } from '../helpers/ledger';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack, startExtraApi } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// Real providers end to end (issue 13, decisions §7): the API resolves a request's routes, the
// generation workflow runs them in order on a worker with the real adapters, each driven through
// its vendor's SDK against a local fake that speaks the provider's protocol.

const IMAGE_CAP_BYTES = 1024 * 1024;
type FakeReplicate = Awaited<ReturnType<typeof startFakeReplicate>>;

async function startGateway(taskQueue: string, platform: Partial<Record<RealProvider, { apiKey: string; baseUrl: string }>>) {
  const { repos, config } = stack();
  const baseUrls = Object.fromEntries(Object.entries(platform).map(([p, c]) => [p, c.baseUrl]));
  const providers = createProviderRegistry({
    simulator: createSimulator({ asyncLatencyMs: 300 }),
    adapters: createRealAdapters({ requestTimeoutMs: 5_000 }),
    platformCredentials: platform,
    ownCredentials: ownCredentialsFrom(repos, createSecretBox(providerSecretsKeys(config)), baseUrls),
    providerMode: 'live',
  });
  const worker = await startTestWorker(taskQueue, { providers, outputCapsBytes: { image: IMAGE_CAP_BYTES } });
  const api = await startExtraApi({ taskQueue, routing: { providerMode: 'live', configuredProviders: Object.keys(platform) } });
  return { api, worker };
}

async function generate(api: { url: string }, key: string, route: string, body: unknown) {
  const res = await call('POST', route, { key, body, baseUrl: api.url });
  assert.ok([200, 202].includes(res.status), `${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string };
}

async function finished(api: { url: string }, key: string, id: string, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/generations/${id}`, { key, baseUrl: api.url });
      return ['succeeded', 'failed', 'canceled'].includes(res.body?.status) ? res.body : undefined;
    },
    timeoutMs,
    `generation ${id} to finish`,
  );
}

/** Calls `listener` with each item pushed onto `list` from now on. */
function onPush<T>(list: T[], listener: (item: T) => void): void {
  const push = list.push.bind(list);
  list.push = (...items: T[]) => {
    items.forEach(listener);
    return push(...items);
  };
}

const attemptsOf = (gen: { attempts: { provider: string; outcome: string; error_code?: string }[] }) =>
  gen.attempts.map((a) => `${a.provider}:${a.outcome}${a.error_code ? `:${a.error_code}` : ''}`);

describe('real providers through the generation workflow', function () {
  this.timeout(120_000);
  let fal: FakeFal;
  let replicate: FakeReplicate;
  let openai: FakeOpenAI;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let org: TestOrganization;

  before(async () => {
    [fal, replicate, openai] = await Promise.all([startFakeFal(), startFakeReplicate(), startFakeOpenAI()]);
    gateway = await startGateway('test-provider-routes', {
      fal: { apiKey: fal.apiKey, baseUrl: fal.baseUrl },
      replicate: { apiKey: replicate.apiKey, baseUrl: replicate.baseUrl },
      openai_compatible: { apiKey: openai.apiKey, baseUrl: openai.baseUrl },
    });
    org = await createOrganization({ plan: 'studio', credits: 10_000_000 });
  });

  after(async () => {
    await gateway.worker.stop();
    await Promise.all([fal.close(), replicate.close(), openai.close()]);
  });

  it('serves a model on its first route and records what served it', async () => {
    const { id } = await generate(gateway.api, org.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'a lighthouse', aspect_ratio: '16:9' });
    const gen = await finished(gateway.api, org.liveKey, id);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    assert.deepEqual([gen.provider, gen.provider_model], ['fal', 'fal-ai/flux/schnell']);
    assert.deepEqual(attemptsOf(gen), ['fal:succeeded']);
    const output = gen.outputs[0];
    assert.equal(output.mime, 'image/png');
    assert.ok(output.width > 0 && output.height > 0, 'dimensions read from the file');
    const submit = fal.received.find((r) => r.operation === 'submit' && r.endpointId === 'fal-ai/flux/schnell');
    assert.equal(submit?.headers.authorization, `Key ${fal.apiKey}`);
    await assertMoneyInvariants(org.id);
  });

  it('falls back to the next route once a route keeps failing with retryable errors', async () => {
    for (let i = 0; i < 5; i++) fal.script.fail(503, { on: 'submit' });
    const { id } = await generate(gateway.api, org.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'fallback' });
    const gen = await finished(gateway.api, org.liveKey, id);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    assert.deepEqual([gen.provider, gen.provider_model], ['replicate', 'black-forest-labs/flux-schnell']);
    assert.deepEqual(attemptsOf(gen), [...Array(5).fill('fal:failed:provider_error'), 'replicate:succeeded']);
    assert.ok(gen.attempts.every((a: { duration_ms: number }) => Number.isInteger(a.duration_ms) && a.duration_ms >= 0));
    assert.equal(gen.charged_credits, gen.reserved_credits);
    await assertMoneyInvariants(org.id);
  });

  it("falls back to the next route when the provider refuses the platform's key (401): not the provider's verdict on the request; charged once", async () => {
    fal.script.fail(401, { on: 'submit' });
    const { id } = await generate(gateway.api, org.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'platform key refused' });
    const gen = await finished(gateway.api, org.liveKey, id);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    assert.deepEqual(attemptsOf(gen), ['fal:failed:provider_auth_failed', 'replicate:succeeded'], 'no retry on the refused key, the next route at once');
    assert.deepEqual([gen.provider, gen.charged_credits], ['replicate', gen.reserved_credits]);
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'capture'], 'charged once');
    await assertMoneyInvariants(org.id);
  });

  it("fails at once on the organization's own key (BYOK) refused (401), refunds, and does not fall back: only the customer can fix that key", async () => {
    const byok = await createOrganization({ plan: 'pro', enterprise: true });
    // The same string as the platform's: the fake takes it, and the route runs on the organization's key.
    const put = await call('PUT', '/v1/provider-credentials/fal', { key: byok.liveKey, body: { api_key: fal.apiKey } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    fal.script.fail(401, { on: 'submit' });
    const before = replicate.received.creates.length;
    const { id } = await generate(gateway.api, byok.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'own key refused' });
    const gen = await finished(gateway.api, byok.liveKey, id);
    assert.equal(gen.status, 'failed');
    assert.deepEqual([gen.error_code, gen.error_source, gen.retryable], ['provider_auth_failed', 'provider', false]);
    assert.match(gen.error_message, /Check the provider key/);
    assert.deepEqual(attemptsOf(gen), ['fal:failed:provider_auth_failed']);
    assert.equal(replicate.received.creates.length, before, 'no fallback');
    assert.deepEqual([gen.charged_credits, gen.refunded_credits], [0, gen.reserved_credits]);
    assert.deepEqual(await ledgerKinds(id), ['reserve', 'refund']);
    await assertMoneyInvariants(byok.id);
  });

  it("the reconciler cancels a stranded job with the key that submitted it: the platform's, though the organization has stored its own since", async () => {
    const ent = await createOrganization({ plan: 'pro', enterprise: true });
    fal.script.slowJob(60_000);
    const { id } = await generate(gateway.api, ent.liveKey, '/v1/videos', { model: 'hailuo-02', prompt: 'stranded on the platform key', duration_s: 6 });
    const jobId = await waitFor(async () => (await stack().repos.generations.findById(id))?.provider_job_id, 30_000, 'the job submitted to fal');
    const put = await call('PUT', '/v1/provider-credentials/fal', { key: ent.liveKey, body: { api_key: 'org-own-fal-key-0002' } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await stack().temporal.workflow.getHandle(id).terminate('stranding the generation');
    await stack().temporal.workflow.execute('reconcilerWorkflow', {
      taskQueue: 'test-provider-routes',
      workflowId: `reconciler-test-${id}`,
      args: [{ minAgeMs: 0 }],
    });
    const gen = await stack().repos.generations.findById(id);
    assert.deepEqual([gen?.status, gen?.error_code], ['failed', 'reconciled']);
    const cancels = fal.received.filter((r) => r.operation === 'cancel' && r.requestId === jobId);
    assert.ok(cancels.length > 0, 'the job was cancelled');
    assert.ok(
      cancels.every((r) => r.headers.authorization === `Key ${fal.apiKey}`),
      `cancelled with: ${cancels.map((r) => r.headers.authorization).join(', ')}`,
    );
    await assertMoneyInvariants(ent.id);
  });

  it("waits for a 429's Retry-After before trying again", async () => {
    fal.script.fail(429, { on: 'submit', retryAfter: '3' });
    const started = Date.now();
    const { id } = await generate(gateway.api, org.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'rate limited' });
    const gen = await finished(gateway.api, org.liveKey, id);
    assert.equal(gen.status, 'succeeded');
    assert.deepEqual(attemptsOf(gen), ['fal:failed:provider_rate_limited', 'fal:succeeded']);
    // Without Retry-After the first retry comes after 1 s (PROVIDER_RETRY's initial interval).
    assert.ok(Date.now() - started >= 3_000, `retried after ${Date.now() - started} ms`);
    await assertMoneyInvariants(org.id);
  });

  for (const [kind, route, body, endpointId] of [
    ['an async', '/v1/videos', { model: 'veo-3-fast', prompt: 'surf', duration_s: 8 }, 'fal-ai/veo3/fast'],
    ['a sync', '/v1/images', { model: 'flux-schnell', prompt: 'sync fallback' }, 'fal-ai/flux/schnell'],
  ] as const) {
    it(`cancels ${kind} route's queued job it gives up on before the next route submits, so two paid jobs never overlap`, async () => {
      for (let i = 0; i < 5; i++) fal.script.fail(503, { on: 'status' });
      // One timeline of what both providers were asked, in the order they were asked it.
      // (The fake fills in a request's operation after recording it: read it once the test is done.)
      const asked: (FalReceived | 'replicate:create')[] = [];
      onPush(fal.received, (r) => asked.push(r));
      onPush(replicate.received.creates, () => asked.push('replicate:create'));
      const { id } = await generate(gateway.api, org.liveKey, route, body);
      const gen = await finished(gateway.api, org.liveKey, id, 90_000);
      assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
      assert.equal(gen.provider, 'replicate');
      const falJobs = asked.filter((r): r is FalReceived => r !== 'replicate:create' && r.operation === 'submit' && r.endpointId === endpointId);
      assert.equal(falJobs.length, 1, 'each retry on the first route polled the job it had queued, none submitted another');
      const timeline = asked.map((r) => (r === 'replicate:create' ? r : `fal:${r.operation}`));
      const cancelAt = timeline.indexOf('fal:cancel');
      assert.ok(cancelAt >= 0, 'the abandoned fal job was cancelled');
      assert.ok(cancelAt < timeline.indexOf('replicate:create'), `cancelled before the next route submitted: ${timeline.join(' ')}`);
      assert.equal((asked[cancelAt] as FalReceived).requestId, falJobs[0]!.requestId, 'the cancel named the job the route queued');
      if (route === '/v1/videos') assert.ok(gen.outputs[0].duration_s > 0, 'duration read from the file');
      await assertMoneyInvariants(org.id);
    });
  }

  it("does not fall back while the route's job it could not cancel may still run: fails and refunds, no second paid job", async () => {
    fal.script.slowJob(60_000);
    for (let i = 0; i < 5; i++) fal.script.fail(503, { on: 'status' });
    for (let i = 0; i < 3; i++) fal.script.fail(503, { on: 'cancel' });
    const creates = replicate.received.creates.length;
    const { id } = await generate(gateway.api, org.liveKey, '/v1/videos', { model: 'veo-3-fast', prompt: 'no overlap', duration_s: 8 });
    const gen = await finished(gateway.api, org.liveKey, id, 90_000);
    assert.deepEqual([gen.status, gen.error_code, gen.retryable], ['failed', 'provider_error', true], JSON.stringify(gen));
    assert.deepEqual(attemptsOf(gen), Array(5).fill('fal:failed:provider_error'));
    assert.equal(replicate.received.creates.length, creates, 'the next route (Replicate) was never asked');
    await assertMoneyInvariants(org.id);
  });

  it("refuses an output over its modality's cap while it streams in: nothing kept, refunded", async () => {
    fal.script.hugeOutput(3 * IMAGE_CAP_BYTES);
    const { id } = await generate(gateway.api, org.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'too big' });
    const gen = await finished(gateway.api, org.liveKey, id);
    assert.equal(gen.status, 'failed');
    assert.deepEqual([gen.error_code, gen.error_source, gen.retryable], ['output_too_large', 'provider', false]);
    const dir = path.join(stack().config.localStorageDir, 'outputs', id);
    assert.deepEqual(await readdir(dir).catch(() => []), [], 'no file stored');
    await assertMoneyInvariants(org.id);
  });

  it('charges media on what was delivered: the images the safety checker let through, the seconds the clip lasts', async () => {
    const imagen = findModel('imagen-4')!;
    fal.script.flagNsfw([false, true, false, false]);
    const { id } = await generate(gateway.api, org.liveKey, '/v1/images', { model: imagen.slug, prompt: 'four lighthouses', num_outputs: 4 });
    const images = await finished(gateway.api, org.liveKey, id);
    assert.equal(images.status, 'succeeded', JSON.stringify(images));
    assert.equal(images.outputs.length, 3);
    assert.equal(images.reserved_credits, estimateCredits(imagen, { count: 4 }, 'studio'));
    assert.equal(images.charged_credits, estimateCredits(imagen, { count: 3 }, 'studio'));
    assert.equal(images.refunded_credits, images.reserved_credits - images.charged_credits);

    // The fake's clip lasts 1 s; 6 s were asked (and reserved).
    const hailuo = findModel('hailuo-02')!;
    const video = await generate(gateway.api, org.liveKey, '/v1/videos', { model: hailuo.slug, prompt: 'a wave', duration_s: 6 });
    const clip = await finished(gateway.api, org.liveKey, video.id);
    assert.equal(clip.status, 'succeeded', JSON.stringify(clip));
    assert.equal(Number(clip.outputs[0].duration_s), 1);
    assert.equal(clip.reserved_credits, estimateCredits(hailuo, { durationMs: 6_000 }, 'studio'));
    assert.equal(clip.charged_credits, estimateCredits(hailuo, { durationMs: 1_000 }, 'studio'));
    await assertMoneyInvariants(org.id);
  });

  it('charges chat on the tokens the server reports, or on a tokenizer count when it reports none', async () => {
    const model = findModel('llama-3.3-70b')!;
    openai.script.reply('Paris is the capital of France.', { inputTokens: 9, outputTokens: 7 });
    const reported = await call('POST', '/v1/chat', { key: org.liveKey, baseUrl: gateway.api.url, body: { model: model.slug, messages: [{ role: 'user', content: 'capital?' }] } });
    assert.equal(reported.status, 200, JSON.stringify(reported.body));
    assert.equal(reported.body.usage.output_tokens, 7);
    assert.equal(reported.body.charged_credits, estimateCredits(model, { outputTokens: 7 }, 'studio'));

    // This server answers "Fake answer to: <the question>" and reports no usage.
    openai.script.noUsage();
    const question = 'How many tokens does a server that counts nothing use?';
    const estimated = await call('POST', '/v1/chat', { key: org.liveKey, baseUrl: gateway.api.url, body: { model: model.slug, messages: [{ role: 'user', content: question }] } });
    assert.equal(estimated.status, 200, JSON.stringify(estimated.body));
    const text = `Fake answer to: ${question}`;
    assert.equal(estimated.body.message.content, text);
    assert.equal(estimated.body.usage.output_tokens, countTokens(text));
    assert.equal(estimated.body.usage.output_tokens_estimated, true);
    assert.equal(estimated.body.charged_credits, estimateCredits(model, { outputTokens: countTokens(text) }, 'studio'));
    await assertMoneyInvariants(org.id);
  });
});

describe('bring your own key', function () {
  this.timeout(60_000);
  let fal: FakeFal;
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  before(async () => {
    // The fake accepts only the organization's key: the platform's is refused.
    fal = await startFakeFal({ apiKey: 'org-own-fal-key-0001' });
    gateway = await startGateway('test-provider-byok', { fal: { apiKey: 'platform-fal-key', baseUrl: fal.baseUrl } });
  });

  after(async () => {
    await gateway.worker.stop();
    await fal.close();
  });

  it("runs an Enterprise organization's requests on its own key instead of the platform's", async () => {
    const own = await createOrganization({ plan: 'pro', enterprise: true });
    const put = await call('PUT', '/v1/provider-credentials/fal', { key: own.liveKey, body: { api_key: 'org-own-fal-key-0001' } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const { id } = await generate(gateway.api, own.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'mine' });
    const gen = await finished(gateway.api, own.liveKey, id);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    assert.equal(fal.received.find((r) => r.operation === 'submit')?.headers.authorization, 'Key org-own-fal-key-0001');
    await assertMoneyInvariants(own.id);

    // Another organization runs on the platform's key, which this provider refuses.
    const other = await createOrganization({ plan: 'pro' });
    const theirs = await generate(gateway.api, other.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'platform' });
    const failed = await finished(gateway.api, other.liveKey, theirs.id);
    assert.equal(failed.error_code, 'provider_auth_failed');
    assert.ok(fal.received.some((r) => r.headers.authorization === 'Key platform-fal-key'));
    await assertMoneyInvariants(other.id);
  });

  it('stops using the stored key of an organization that is no longer Enterprise: its requests run on the platform key', async () => {
    const org = await createOrganization({ plan: 'pro', enterprise: true });
    assert.equal((await call('PUT', '/v1/provider-credentials/fal', { key: org.liveKey, body: { api_key: 'org-own-fal-key-0001' } })).status, 200);
    const patched = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: stack().adminToken, body: { enterprise: false } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const { id } = await generate(gateway.api, org.liveKey, '/v1/images', { model: 'flux-schnell', prompt: 'downgraded' });
    const gen = await finished(gateway.api, org.liveKey, id);
    // The fake accepts only the stored key: the platform's is refused, which is ours to fix, not the caller's.
    assert.deepEqual([gen.status, gen.error_code, gen.error_source, gen.retryable], ['failed', 'provider_auth_failed', 'gateway', true], JSON.stringify(gen));
    assert.doesNotMatch(gen.error_message, /Check the provider key/);
    await assertMoneyInvariants(org.id);
  });

  it('keeps a running job on the key it was admitted with: once that own key is deleted, the job fails as ours, never moved to the platform key', async () => {
    const org = await createOrganization({ plan: 'pro', enterprise: true });
    assert.equal((await call('PUT', '/v1/provider-credentials/fal', { key: org.liveKey, body: { api_key: 'org-own-fal-key-0001' } })).status, 200);
    fal.script.slowJob(60_000);
    const from = fal.received.length;
    const { id } = await generate(gateway.api, org.liveKey, '/v1/videos', { model: 'hailuo-02', prompt: 'pinned', duration_s: 6 });
    await waitFor(async () => (await stack().knex('generations').where({ id }).first('provider_job_submitted_at'))?.provider_job_submitted_at, 30_000, 'the job submitted to fal');
    assert.equal((await call('DELETE', '/v1/provider-credentials/fal', { key: org.liveKey })).status, 200);
    // A failed poll makes the step run again, and look its credentials up again.
    fal.script.fail(503, { on: 'status' });
    const gen = await finished(gateway.api, org.liveKey, id);
    assert.deepEqual([gen.status, gen.error_code, gen.error_source, gen.retryable], ['failed', 'provider_auth_failed', 'gateway', false], JSON.stringify(gen));
    assert.match(gen.error_message, /own fal key, which was deleted/);
    const polls = fal.received.slice(from).filter((r) => r.operation === 'status');
    assert.ok(polls.length > 0);
    assert.ok(
      polls.every((r) => r.headers.authorization === 'Key org-own-fal-key-0001'),
      'every poll used the key the job was submitted with',
    );
    await assertMoneyInvariants(org.id);
  });
});

describe('PROVIDER_MODE=live without credentials', () => {
  it('answers 503 provider_unavailable before anything is reserved, and /v1/models says so', async () => {
    const api = await startExtraApi({ routing: { providerMode: 'live', configuredProviders: [] } });
    const org = await createOrganization({ plan: 'pro', credits: 5_000 });
    const res = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: api.url, body: { model: 'flux-schnell', prompt: 'none' } });
    assert.equal(res.status, 503);
    assert.equal(res.body.error.code, 'provider_unavailable');
    assert.match(res.body.error.message, /fal, replicate/);
    const balance = await call('GET', '/v1/balance', { key: org.liveKey, baseUrl: api.url });
    assert.deepEqual([balance.body.available_credits, balance.body.reserved_credits], [5_000, 0]);
    assert.equal((await stack().knex('generations').where({ organization_id: org.id })).length, 0);

    const models = await call('GET', '/v1/models', { key: org.liveKey, baseUrl: api.url });
    const flux = models.body.data.find((m: { slug: string }) => m.slug === 'flux-schnell');
    assert.deepEqual([flux.available, flux.providers], [false, []]);
    // The sandbox always runs on the simulator.
    const sandbox = await call('POST', '/v1/images', { key: org.testKey, baseUrl: api.url, body: { model: 'flux-schnell', prompt: 'sandbox' } });
    assert.equal(sandbox.status, 200);
    assert.equal(sandbox.body.provider, 'simulator');
  });

  it("names this deployment's routes, MODEL_ROUTES included, in the 503 and in /v1/models", async () => {
    const modelRoutes = { 'flux-schnell': [{ provider: 'replicate' as const, model: 'black-forest-labs/flux-schnell' }] };
    const api = await startExtraApi({ routing: { providerMode: 'live', configuredProviders: [], modelRoutes } });
    const org = await createOrganization({ plan: 'pro', credits: 5_000 });
    const res = await call('POST', '/v1/images', { key: org.liveKey, baseUrl: api.url, body: { model: 'flux-schnell', prompt: 'none' } });
    assert.equal(res.status, 503);
    assert.match(res.body.error.message, /none of its providers \(replicate\)/);
    const models = await call('GET', '/v1/models', { key: org.liveKey, baseUrl: api.url });
    const flux = models.body.data.find((m: { slug: string }) => m.slug === 'flux-schnell');
    assert.deepEqual([flux.provider, flux.available], ['replicate', false]);
    await assertMoneyInvariants(org.id);
  });
});
