import assert from 'node:assert/strict';
import { createReplicateAdapter } from '../../../activities/providers/replicate';
import { ProviderError, type ProviderFile } from '../../../activities/providers/types';
import { freePort } from '../../../lib/free-port';
import { waitFor } from '../../helpers/http';
import { contextFor, done, pendingId, replicateJob } from '../../fakes/replicate-jobs';
import { startFakeReplicate, type FakeReplicate } from '../../fakes/replicate-server';
import { failsWith } from '../../helpers/provider-errors';

// How the Replicate adapter fails: what a retry can cure (429 after Retry-After, 5xx, timeouts,
// connection errors) is retryable; what it cannot (a refused key, a refused request, a failed or
// refused job, an answer without output) is not. The SDK's own retries are off: Temporal retries.

describe('Replicate adapter: failures', () => {
  let fake: FakeReplicate;
  const adapter = createReplicateAdapter({ requestTimeoutMs: 5_000 });
  const image = () => replicateJob(fake, 'flux-schnell', { params: { num_outputs: 1 } });
  const video = () => replicateJob(fake, 'veo-3', { params: { duration_s: 8 } });

  beforeEach(async () => {
    fake = await startFakeReplicate({ latencyMs: 20 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('a refused key is provider_auth_failed, not retryable', async () => {
    const job = { ...image(), credentials: { apiKey: 'r8_wrong', baseUrl: fake.baseUrl } };
    await assert.rejects(
      adapter.submit(job, contextFor(fake)),
      failsWith('provider_auth_failed', false, (err) => assert.match(err.message, /valid authentication token/)),
    );
    assert.equal(fake.received.requests[0]?.authorization, 'Bearer r8_wrong');
  });

  it('a 429 is provider_rate_limited, retryable after its Retry-After, and the SDK does not retry it itself', async () => {
    fake.script.fail(429, { retryAfter: '2' });
    await assert.rejects(
      adapter.submit(image(), contextFor(fake)),
      failsWith('provider_rate_limited', true, (err) => assert.equal(err.opts.retryAfterMs, 2_000)),
    );
    assert.equal(fake.received.requests.length, 1);
  });

  it('a 503 is a retryable provider_error seen once by Replicate, and the next call succeeds', async () => {
    fake.script.fail(503);
    await assert.rejects(adapter.submit(image(), contextFor(fake)), failsWith('provider_error', true));
    assert.equal(fake.received.requests.length, 1, 'the SDK did not repeat the request');
    assert.equal(done(await adapter.submit(image(), contextFor(fake))).files.length, 1);
  });

  it('a 5xx while polling is retryable, asked once, and the next poll goes on', async () => {
    fake.script.delayNext(60_000);
    const job = video();
    const providerJobId = pendingId(await adapter.submit(job, contextFor(fake)));
    fake.script.fail(502);
    await assert.rejects(adapter.poll(job, providerJobId, contextFor(fake)), failsWith('provider_error', true));
    assert.equal(fake.received.requests.filter((r) => r.method === 'GET').length, 1, 'the SDK did not repeat the GET');
    assert.equal((await adapter.poll(job, providerJobId, contextFor(fake))).state, 'pending');
  });

  it('a request Replicate does not answer in time is a retryable provider_timeout, quickly', async () => {
    fake.script.hang();
    const impatient = createReplicateAdapter({ requestTimeoutMs: 300 });
    const started = Date.now();
    await assert.rejects(impatient.submit(image(), contextFor(fake)), failsWith('provider_timeout', true));
    assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
    assert.equal(fake.received.requests.length, 1);
  });

  it('a cancelled activity stops a poll at once, and the cancellation passes through as is', async () => {
    fake.script.delayNext(60_000);
    const job = video();
    const providerJobId = pendingId(await adapter.submit(job, contextFor(fake)));
    fake.script.hang();
    const cancelled = new AbortController();
    const started = Date.now();
    const polling = adapter.poll(job, providerJobId, contextFor(fake, { signal: cancelled.signal }));
    await waitFor(async () => fake.received.requests.length === 2, 5_000, 'the poll to reach the fake');
    cancelled.abort();
    await assert.rejects(polling, (err: Error) => !(err instanceof ProviderError) && err.name === 'AbortError');
    assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
  });

  it("a cancel does not cut a prediction's creation short, even one held by Prefer: wait: its answer still comes", async () => {
    fake.script.delayNext(1_000);
    const cancelled = new AbortController();
    const submitting = adapter.submit(image(), contextFor(fake, { signal: cancelled.signal }));
    await waitFor(async () => fake.received.requests.length === 1, 5_000, 'the creation to reach the fake');
    cancelled.abort();
    // Replicate runs the prediction whether or not anyone waits: only its answer says what to stop.
    assert.equal(done(await submitting).files.length, 1);
  });

  it('a provider that cannot be reached is a retryable provider_unreachable', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const job = { ...image(), credentials: { apiKey: fake.apiKey, baseUrl: closed } };
    await assert.rejects(adapter.submit(job, contextFor(fake)), failsWith('provider_unreachable', true));
  });

  it('a refused request (422) is provider_rejected, not retryable', async () => {
    fake.script.fail(422, { detail: '- aspect_ratio: aspect_ratio must be one of the following: "1:1"' });
    await assert.rejects(
      adapter.submit(image(), contextFor(fake)),
      failsWith('provider_rejected', false, (err) => assert.match(err.message, /aspect_ratio/)),
    );
  });

  it('a prediction that fails is a provider_error, not retryable, with its error', async () => {
    fake.script.jobFails('CUDA out of memory');
    await assert.rejects(
      adapter.submit(image(), contextFor(fake)),
      failsWith('provider_error', false, (err) => assert.match(err.message, /CUDA out of memory/)),
    );
  });

  it('a queued prediction that fails is found failed by the poll', async () => {
    fake.script.jobFails('Prediction interrupted; please retry (code: PA)');
    const job = video();
    const providerJobId = pendingId(await adapter.submit(job, contextFor(fake)));
    await assert.rejects(
      waitFor(async () => (await adapter.poll(job, providerJobId, contextFor(fake))).state === 'done', 5_000, 'the poll to fail'),
      failsWith('provider_error', false),
    );
  });

  it('a prediction refused by the safety checker is a content_policy_violation', async () => {
    fake.script.jobFails('NSFW content detected. Try running it again, or try a different prompt.');
    await assert.rejects(adapter.submit(image(), contextFor(fake)), failsWith('content_policy_violation', false));
  });

  it('a prediction canceled by someone else is a provider_error', async () => {
    fake.script.delayNext(60_000);
    const job = video();
    const providerJobId = pendingId(await adapter.submit(job, contextFor(fake)));
    fake.prediction(providerJobId)!.status = 'canceled';
    await assert.rejects(
      adapter.poll(job, providerJobId, contextFor(fake)),
      failsWith('provider_error', false, (err) => assert.match(err.message, /canceled/)),
    );
  });

  it('an output without a file URL, no output, or an answer that is not JSON is provider_bad_output', async () => {
    fake.script.malformedOutput();
    await assert.rejects(
      adapter.submit(image(), contextFor(fake)),
      failsWith('provider_bad_output', false, (err) => assert.match(err.message, /no file URL/)),
    );
    fake.script.missingOutput();
    await assert.rejects(adapter.submit(image(), contextFor(fake)), failsWith('provider_bad_output', false));
    fake.script.malformedBody();
    await assert.rejects(adapter.submit(image(), contextFor(fake)), failsWith('provider_bad_output', false));
  });

  it('returns an oversize output as a URL without downloading it (the gateway streams it under its cap)', async () => {
    const bytes = 200 * 1024 * 1024;
    fake.script.hugeOutput(bytes);
    const [file] = done(await adapter.submit(image(), contextFor(fake))).files as ProviderFile[];
    assert.equal(file?.kind, 'url');
    assert.deepEqual(fake.received.downloads, [], 'the adapter read none of it');
    const answer = await fetch((file as { url: string }).url);
    assert.equal(answer.headers.get('content-length'), String(bytes));
    await answer.body?.cancel();
  });

  it('stops reading an answer whose inline output is over the cap: output_too_large, and the bound follows the cap', async () => {
    const padded = 2 * 1024 * 1024;
    fake.script.inlineOutput(padded);
    await assert.rejects(
      adapter.submit(image(), contextFor(fake, { outputCapBytes: 256 * 1024 })),
      failsWith('output_too_large', false, (err) => assert.match(err.message, /^replicate's answer was larger than 1 MB/)),
    );
    fake.script.inlineOutput(padded);
    const [file] = done(await adapter.submit(image(), contextFor(fake, { outputCapBytes: 4 * padded }))).files as ProviderFile[];
    assert.equal(file?.kind, 'bytes');
    assert.equal((file as { data: Buffer }).data.length, padded);
  });

  it('a submission whose second prediction is refused stops the first, then fails as a whole', async () => {
    fake.script.fail(503);
    const job = replicateJob(fake, 'flux-1.1-pro', { params: { num_outputs: 2 } });
    await assert.rejects(adapter.submit(job, contextFor(fake)), failsWith('provider_error', true));
    const started = fake.received.requests.length;
    assert.equal(started, 2);
    await waitFor(async () => fake.received.cancels.length === 1, 5_000, 'the started prediction to be cancelled');
  });

  it('a job one of whose predictions fails stops the others it started', async () => {
    fake.script.jobFails('CUDA out of memory');
    fake.script.delayNext(60_000);
    const quick = createReplicateAdapter({ requestTimeoutMs: 3_000 });
    const job = replicateJob(fake, 'flux-1.1-pro', { params: { num_outputs: 2 } });
    await assert.rejects(quick.submit(job, contextFor(fake)), failsWith('provider_error', false));
    await waitFor(async () => fake.received.cancels.length === 1, 5_000, 'the running prediction to be cancelled');
    assert.equal(fake.prediction(fake.received.cancels[0]!)?.status, 'canceled');
  });

  it('a community model routed without its version is refused by Replicate: provider_rejected', async () => {
    const job = {
      ...replicateJob(fake, 'real-esrgan', { params: { scale_factor: '2' } }),
      route: { provider: 'replicate' as const, model: 'nightmareai/real-esrgan' } /* by name, without its version */,
    };
    await assert.rejects(
      adapter.submit(job, contextFor(fake)),
      failsWith('provider_rejected', false, (err) => assert.match(err.message, /HTTP 404/)),
    );
  });

  it('a route that is no Replicate model id is refused before any request', async () => {
    const job = { ...image(), route: { provider: 'replicate' as const, model: 'flux schnell' } };
    await assert.rejects(
      adapter.submit(job, contextFor(fake)),
      failsWith('provider_rejected', false, (err) => assert.equal(err.opts.source, 'gateway')),
    );
    assert.equal(fake.received.requests.length, 0);
  });
});
