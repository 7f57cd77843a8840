import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createReplicateAdapter } from '../../../activities/providers/replicate';
import type { ProviderFile } from '../../../activities/providers/types';
import { probe } from '../../../lib/ffmpeg';
import { download } from '../../helpers/media';
import { contextFor, done, imageInput, inputImage, pendingId, pollUntilDone, REPLICATE_ROUTES, replicateJob } from '../../fakes/replicate-jobs';
import { startFakeReplicate, type FakeReplicate } from '../../fakes/replicate-server';

// The Replicate adapter, driven through the official SDK against a local fake of the predictions
// API: what it asks Replicate for each modality, and what it makes of the answers.

const urlFile = (file: unknown): Extract<ProviderFile, { kind: 'url' }> => {
  const f = file as ProviderFile;
  assert.equal(f.kind, 'url');
  return f as Extract<ProviderFile, { kind: 'url' }>;
};

describe('Replicate adapter: what it asks for and what it returns', () => {
  let fake: FakeReplicate;
  // 5 s per request leaves a 3 s `Prefer: wait` (2 s are kept for the answer).
  const adapter = createReplicateAdapter({ requestTimeoutMs: 5_000 });

  beforeEach(async () => {
    fake = await startFakeReplicate({ latencyMs: 20 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('runs FLUX schnell by name with Prefer: wait, and returns its images from submit', async () => {
    const job = replicateJob(fake, 'flux-schnell', { params: { aspect_ratio: '16:9', num_outputs: 2, seed: 7, negative_prompt: 'fog' } });
    const result = done(await adapter.submit(job, contextFor(fake)));

    const [create] = fake.received.creates;
    assert.equal(create?.path, '/v1/models/black-forest-labs/flux-schnell/predictions');
    assert.equal(create?.authorization, `Bearer ${fake.apiKey}`);
    assert.equal(create?.prefer, 'wait=3');
    assert.deepEqual(create?.body, {
      input: { prompt: 'a lighthouse at dusk', aspect_ratio: '16:9', num_outputs: 2, output_format: 'png', seed: 7 },
    });
    assert.equal(result.files.length, 2);
    for (const file of result.files.map(urlFile)) {
      assert.equal(file.mime, 'image/png');
      assert.ok(file.url.startsWith(fake.baseUrl.replace('/v1', '/files/')), file.url);
      const meta = await sharp((await download(file.url)).data).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1344, 756]);
    }
    assert.equal(result.usage, undefined);
  });

  it('sends FLUX dev the input image as a signed URL for image-to-image', async () => {
    const ctx = contextFor(fake, { input: await inputImage() });
    const job = replicateJob(fake, 'flux-dev', { params: { aspect_ratio: '1:1', num_outputs: 1 }, inputs: imageInput });
    const result = done(await adapter.submit(job, ctx));
    const input = (fake.received.creates[0]?.body as { input: Record<string, unknown> }).input;
    assert.equal(input.image, ctx.inputUrls[0]);
    assert.equal(fake.received.creates[0]?.path, '/v1/models/black-forest-labs/flux-dev/predictions');
    assert.equal(result.files.length, 1);
  });

  it('runs a one-image model once per requested output, seeds apart, and joins the files in order', async () => {
    const job = replicateJob(fake, 'flux-1.1-pro', { params: { aspect_ratio: '2:3', num_outputs: 2, seed: 41 } });
    const result = done(await adapter.submit(job, contextFor(fake)));
    const inputs = fake.received.creates.map((c) => (c.body as { input: Record<string, unknown> }).input);
    assert.deepEqual(
      inputs.map((i) => i.seed as number).sort((a, b) => a - b),
      [41, 42],
    );
    for (const input of inputs) assert.deepEqual({ ...input, seed: 0 }, { prompt: 'a lighthouse at dusk', aspect_ratio: '2:3', output_format: 'png', seed: 0 });
    assert.equal(result.files.length, 2);
    assert.notEqual(urlFile(result.files[0]).url, urlFile(result.files[1]).url);
  });

  it('asks Imagen 4 for PNGs without a seed, which it does not take', async () => {
    const job = replicateJob(fake, 'imagen-4-fast', { params: { aspect_ratio: '9:16', num_outputs: 1, seed: 3 } });
    const result = done(await adapter.submit(job, contextFor(fake)));
    assert.equal(fake.received.creates[0]?.path, '/v1/models/google/imagen-4-fast/predictions');
    assert.deepEqual((fake.received.creates[0]?.body as { input: unknown }).input, { prompt: 'a lighthouse at dusk', aspect_ratio: '9:16', output_format: 'png' });
    assert.equal(urlFile(result.files[0]).mime, 'image/png');
  });

  const upscalers = [
    { slug: 'real-esrgan', expected: (url: string) => ({ image: url, scale: 2, face_enhance: true }) },
    { slug: 'codeformer', expected: (url: string) => ({ image: url, upscale: 2, face_upsample: true, background_enhance: true }) },
    { slug: 'gfpgan', expected: (url: string) => ({ img: url, scale: 2 }) },
  ] as const;
  for (const { slug, expected } of upscalers) {
    it(`runs the ${slug} upscaler by its pinned version with that model's own input names`, async () => {
      const ctx = contextFor(fake, { input: await inputImage() });
      const job = replicateJob(fake, slug, { prompt: '', params: { scale_factor: '2', face_enhance: true }, inputs: imageInput });
      const result = done(await adapter.submit(job, ctx));
      const create = fake.received.creates[0];
      assert.equal(create?.path, '/v1/predictions');
      assert.equal(create?.prefer, 'wait=3');
      const body = create?.body as { version: string; input: unknown };
      assert.equal(body.version, REPLICATE_ROUTES[slug].split(':')[1]);
      assert.deepEqual(body.input, expected(ctx.inputUrls[0]!));
      const meta = await sharp((await download(urlFile(result.files[0]).url)).data).metadata();
      assert.deepEqual([meta.width, meta.height], [128, 96]);
    });
  }

  it('queues Veo 3 without waiting, then polls it to an MP4 with sound', async () => {
    const ctx = contextFor(fake);
    const job = replicateJob(fake, 'veo-3', { params: { duration_s: 8, aspect_ratio: '9:16', seed: 5 } });
    const providerJobId = pendingId(await adapter.submit(job, ctx));
    const create = fake.received.creates[0];
    assert.equal(create?.path, '/v1/models/google/veo-3/predictions');
    assert.equal(create?.prefer, undefined);
    assert.deepEqual((create?.body as { input: unknown }).input, { prompt: 'a lighthouse at dusk', aspect_ratio: '9:16', duration: 8, seed: 5 });

    const result = await pollUntilDone(adapter, job, providerJobId, ctx);
    const file = urlFile(result.files[0]);
    assert.equal(file.mime, 'video/mp4');
    const probed = await probe((await download(file.url)).data);
    assert.ok(
      probed.streams.some((s) => s.codec_type === 'audio'),
      'Veo 3 videos have sound',
    );
    assert.ok(fake.received.requests.some((r) => r.method === 'GET' && r.path === `/v1/predictions/${providerJobId}`));
  });

  it('gives Veo 3 Fast the input image as its first frame', async () => {
    const ctx = contextFor(fake, { input: await inputImage() });
    const job = replicateJob(fake, 'veo-3-fast', { params: { duration_s: 8, aspect_ratio: '16:9' }, inputs: imageInput });
    pendingId(await adapter.submit(job, ctx));
    assert.equal((fake.received.creates[0]?.body as { input: { image: string } }).input.image, ctx.inputUrls[0]);
  });

  it('returns a prediction that outlasts its wait as pending, and any worker can poll it by its id', async () => {
    fake.script.delayNext(1_500);
    const quick = createReplicateAdapter({ requestTimeoutMs: 3_000 });
    const job = replicateJob(fake, 'flux-schnell', { params: { num_outputs: 1 } });
    const providerJobId = pendingId(await quick.submit(job, contextFor(fake)));
    assert.equal(fake.received.creates[0]?.prefer, 'wait=1');
    const another = createReplicateAdapter({ requestTimeoutMs: 3_000 });
    const result = await pollUntilDone(another, job, providerJobId, contextFor(fake));
    assert.equal(result.files.length, 1);
  });

  it('passes an https callback URL as a completed-only webhook, and leaves out one Replicate would refuse', async () => {
    const job = replicateJob(fake, 'veo-3', { params: { duration_s: 8 }, callbackUrl: 'https://gateway.example/callbacks/abc' });
    pendingId(await adapter.submit(job, contextFor(fake)));
    const plain = replicateJob(fake, 'veo-3', { params: { duration_s: 8 }, callbackUrl: 'http://gateway.example/callbacks/abc' });
    pendingId(await adapter.submit(plain, contextFor(fake)));
    const [withHook, withoutHook] = fake.received.creates.map((c) => c.body as Record<string, unknown>);
    assert.equal(withHook?.webhook, 'https://gateway.example/callbacks/abc');
    assert.deepEqual(withHook?.webhook_events_filter, ['completed']);
    assert.equal(withoutHook?.webhook, undefined);
  });

  it('returns a file answered inline as a data: URL as its bytes', async () => {
    fake.script.inlineOutput();
    const [file] = done(await adapter.submit(replicateJob(fake, 'imagen-4', { params: { num_outputs: 1 } }), contextFor(fake))).files as ProviderFile[];
    assert.equal(file?.kind, 'bytes');
    assert.equal(file?.mime, 'image/png');
    const meta = await sharp((file as { data: Buffer }).data).metadata();
    assert.deepEqual([meta.format, meta.width], ['png', 1024]);
  });

  it('cancels a queued prediction at Replicate, and a job Replicate no longer knows cancels quietly', async () => {
    fake.script.delayNext(60_000);
    const job = replicateJob(fake, 'veo-3', { params: { duration_s: 8 } });
    const providerJobId = pendingId(await adapter.submit(job, contextFor(fake)));
    await adapter.cancel(job, providerJobId);
    assert.deepEqual(fake.received.cancels, [providerJobId]);
    assert.equal(fake.prediction(providerJobId)?.status, 'canceled');
    await adapter.cancel(job, 'gone0000000000000000000000');
  });
});
