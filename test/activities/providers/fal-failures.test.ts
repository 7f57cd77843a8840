import assert from 'node:assert/strict';
import { createFalAdapter } from '../../../activities/providers/fal/adapter';
import { ProviderError, type ProviderAdapter, type ProviderJob } from '../../../activities/providers/types';
import { startFakeFal, type FakeFal } from '../../fakes/fal-server';
import { falJob, runToDone, testContext } from '../../fakes/fal-test-jobs';
import { waitFor } from '../../helpers/http';

// How the fal adapter classifies what goes wrong (activities/providers/http-failure.ts): what a
// retry may cure is retryable (rate limits after Retry-After, 5xx, timeouts), what it cannot is not
// (bad key, refusals, content policy, a request fal ran and failed, an answer without output).
// The SDK never retries on its own: each failure below reaches the fake exactly once.

const TIMEOUT_MS = 300;

function providerError(code: string, retryable: boolean, extra: (err: ProviderError) => boolean = () => true) {
  return (err: unknown) => {
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${String(err)}`);
    assert.deepEqual([err.code, err.retryable], [code, retryable], err.message);
    assert.ok(extra(err), err.message);
    return true;
  };
}

describe('fal adapter failures', () => {
  let fake: FakeFal;
  const adapter = createFalAdapter({ requestTimeoutMs: TIMEOUT_MS });
  const pair = [adapter, createFalAdapter({ requestTimeoutMs: TIMEOUT_MS })] as const;
  const imageJob = (over: Partial<ProviderJob> = {}) => falJob(fake, 'flux-schnell', { params: { aspect_ratio: '1:1', num_outputs: 1 }, ...over });
  const videoJob = () => falJob(fake, 'kling-2.1-master', { params: { duration_s: 5, aspect_ratio: '16:9' } });
  const count = (operation: string) => fake.received.filter((r) => r.operation === operation).length;

  beforeEach(async () => {
    fake = await startFakeFal();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('fails a refused key at once with provider_auth_failed, not retryable', async () => {
    const job = imageJob({ credentials: { apiKey: 'not-the-key', baseUrl: fake.baseUrl } });
    await assert.rejects(adapter.submit(job, testContext()), providerError('provider_auth_failed', false));
    assert.equal(fake.received[0]!.headers.authorization, 'Key not-the-key', "the job's own key is the one sent");
    assert.equal(count('submit'), 1);
  });

  it("passes a 429's Retry-After on as the delay before the retry, sent once", async () => {
    fake.script.fail(429, { retryAfter: '2' });
    await assert.rejects(
      adapter.submit(imageJob(), testContext()),
      providerError('provider_rate_limited', true, (err) => err.opts.retryAfterMs === 2_000),
    );
    assert.equal(count('submit'), 1, "the SDK's own retries are off");
  });

  it('fails a 503 as a retryable provider_error without retrying it itself, and the next call succeeds', async () => {
    fake.script.fail(503);
    await assert.rejects(adapter.submit(imageJob(), testContext()), providerError('provider_error', true));
    assert.equal(count('submit'), 1, "the SDK's own retries are off: exactly one request after a 503");
    const result = await runToDone(pair, imageJob());
    assert.equal(result.files.length, 1);
  });

  it('does not let the SDK retry a failed status poll either (its status calls retry 500 five times)', async () => {
    const job = videoJob();
    const submitted = await adapter.submit(job, testContext());
    fake.script.fail(500, { on: 'status' });
    const requestId = submitted.state === 'pending' ? submitted.providerJobId : '';
    await assert.rejects(adapter.poll(job, requestId, testContext()), providerError('provider_error', true));
    assert.equal(count('status'), 1);
  });

  it('turns a provider that never answers into a retryable provider_timeout, quickly', async () => {
    fake.script.hang({ on: 'submit' });
    const started = Date.now();
    await assert.rejects(adapter.submit(videoJob(), testContext()), providerError('provider_timeout', true));
    assert.ok(Date.now() - started < TIMEOUT_MS + 1_500, `took ${Date.now() - started} ms`);
    assert.equal(count('submit'), 1);
  });

  it('fails a refused connection as a retryable provider_unreachable whose message names the provider, not the address (that is for the log)', async () => {
    const closed = await startFakeFal();
    await closed.close();
    const job = imageJob({ credentials: { apiKey: fake.apiKey, baseUrl: closed.baseUrl } });
    const { port } = new URL(closed.baseUrl);
    await assert.rejects(
      adapter.submit(job, testContext()),
      providerError('provider_unreachable', true, (err) => {
        assert.equal(err.message, 'The provider fal could not be reached; the generation was refunded. Try again later.');
        assert.match(err.opts.internalDetail ?? '', new RegExp(`ECONNREFUSED .*:${port}`), 'the root cause, for the log');
        return true;
      }),
    );
  });

  it('stops a poll at once when the activity is cancelled, passing the cancellation through', async () => {
    const slow = createFalAdapter({ requestTimeoutMs: 30_000 });
    const job = videoJob();
    const submitted = await slow.submit(job, testContext());
    assert.equal(submitted.state, 'pending');
    fake.script.hang({ on: 'status' });
    const abort = new AbortController();
    const started = Date.now();
    const polling = slow.poll(job, submitted.state === 'pending' ? submitted.providerJobId : '', testContext(abort.signal));
    await waitFor(async () => count('status') === 1, 5_000, 'the poll to reach fal');
    abort.abort();
    await assert.rejects(polling, (err: unknown) => !(err instanceof ProviderError) && (err as Error).name === 'AbortError');
    assert.ok(Date.now() - started < 5_000);
  });

  it("does not cut a submission short when the activity is cancelled: fal's answer names the job to cancel", async () => {
    let answer!: () => void;
    fake.script.holdSubmitAnswer(new Promise<void>((resolve) => (answer = resolve)));
    const abort = new AbortController();
    const submitting = adapter.submit(videoJob(), testContext(abort.signal));
    await waitFor(async () => count('submit') === 1, 5_000, 'the submit to reach fal');
    abort.abort();
    answer();
    const submitted = await submitting;
    assert.equal(submitted.state, 'pending');
    assert.equal(submitted.state === 'pending' && submitted.providerJobId, fake.received.find((r) => r.operation === 'submit')?.requestId);
  });

  it('fails a result that is not valid JSON with provider_bad_output', async () => {
    fake.script.malformedOutput();
    await assert.rejects(runToDone(pair, imageJob()), providerError('provider_bad_output', false));
  });

  it('fails a result without any output file with provider_bad_output', async () => {
    fake.script.missingOutput();
    await assert.rejects(
      runToDone(pair, videoJob()),
      providerError('provider_bad_output', false, (err) => /video/.test(err.message)),
    );
  });

  it("fails a request fal's content checker refused with content_policy_violation, from the status or the result", async () => {
    fake.script.contentPolicy().contentPolicy({ reportInStatus: false });
    await assert.rejects(runToDone(pair, imageJob()), providerError('content_policy_violation', false));
    await assert.rejects(runToDone(pair, imageJob()), providerError('content_policy_violation', false));
    assert.equal(count('result'), 1, 'the status alone told the first one');
  });

  it('treats images the safety checker all flagged as a content policy refusal, not as outputs', async () => {
    fake.script.flagNsfw();
    await assert.rejects(runToDone(pair, imageJob()), providerError('content_policy_violation', false));
  });

  it('fails a request fal ran and failed with provider_error, not retryable, from the status or the result', async () => {
    fake.script.failJob({ errorType: 'runner_disconnected' }).failJob({ status: 503, errorType: 'runner_disconnected', reportInStatus: false });
    await assert.rejects(
      runToDone(pair, videoJob()),
      providerError('provider_error', false, (err) => /runner_disconnected/.test(err.message)),
    );
    await assert.rejects(runToDone(pair, videoJob()), providerError('provider_error', false));
  });

  it('fails a request fal refused as invalid with provider_rejected', async () => {
    fake.script.failJob({ status: 422, detail: 'duration: Input should be "5" or "10"', reportInStatus: false });
    await assert.rejects(
      runToDone(pair, videoJob()),
      providerError('provider_rejected', false, (err) => /duration/.test(err.message)),
    );
  });

  it('cancels a running request through the queue, and leaves a finished one alone', async () => {
    fake.script.slowJob(10_000);
    const job = videoJob();
    const submitted = await adapter.submit(job, testContext());
    const requestId = submitted.state === 'pending' ? submitted.providerJobId : '';
    await adapter.cancel(job, requestId);
    assert.deepEqual(fake.cancelled, [requestId]);
    const cancel = fake.received.find((r) => r.operation === 'cancel')!;
    assert.deepEqual([cancel.method, cancel.path], ['PUT', `/fal-ai/kling-video/requests/${requestId}/cancel`]);

    const finished = imageJob();
    const done = await adapter.submit(finished, testContext());
    await adapter.cancel(finished, done.state === 'pending' ? done.providerJobId : '');
    assert.deepEqual(fake.cancelled, [requestId], 'ALREADY_COMPLETED is not an error');
  });

  it('hands an oversize output on as a URL without reading it, for the ingest step to refuse', async () => {
    const bytes = 64 * 1024 * 1024;
    fake.script.hugeOutput(bytes);
    const result = await runToDone(pair, videoJob());
    const [file] = result.files;
    assert.ok(file && 'kind' in file && file.kind === 'url');
    assert.equal(count('file'), 0, 'the adapter did not download it');
    const served = await fetch(file.url);
    assert.equal(served.headers.get('content-length'), String(bytes));
    await served.body?.cancel();
  });

  it('polls a request from another worker with nothing but its request id', async () => {
    const adapters: ProviderAdapter[] = [createFalAdapter({ requestTimeoutMs: 5_000 }), createFalAdapter({ requestTimeoutMs: 5_000 })];
    const job = falJob(fake, 'rodin', { params: { texture_size: '1024', mesh_complexity: 'medium', rigged: false } });
    const submitted = await adapters[0]!.submit(job, testContext());
    assert.equal(submitted.state, 'pending');
    const polled = await adapters[1]!.poll(job, submitted.state === 'pending' ? submitted.providerJobId : '', testContext());
    assert.equal(polled.state, 'done');
    assert.deepEqual((fake.received[0]!.body as Record<string, unknown>).geometry_file_format, 'glb');
    assert.equal(fake.received[1]!.path, `/fal-ai/hyper3d/requests/${submitted.state === 'pending' ? submitted.providerJobId : ''}/status`);
  });
});
