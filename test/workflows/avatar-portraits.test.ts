import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createRealAdapters } from '../../activities/providers/real-adapters';
import { createProviderRegistry } from '../../activities/providers/registry';
import { createSimulator } from '../../activities/providers/simulator';
import { findStockAvatar } from '../../domain/avatars';
import { runFfmpegToFile } from '../../lib/ffmpeg';
import { startFakeFal, type FakeFal } from '../fakes/fal-server';
import { call, createOrganization, waitFor, waitForGeneration, type TestOrganization } from '../helpers/http';
import { download } from '../helpers/media';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { startExtraApi } from '../helpers/stack';
import { startTestWorker } from '../helpers/test-worker';

// A portrait avatar model (MultiTalk) through the real fal adapter, against the fake fal: what
// arrives at fal is a real image at a signed URL, the stock portrait of avatar_id for a text
// request and the first frame of video_url for a lipsync one (decisions §10).

describe('portrait avatar models on fal: the portrait that reaches the provider', function () {
  this.timeout(120_000);
  let fal: FakeFal;
  let api: { url: string };
  let worker: { stop(): Promise<void> };
  let org: TestOrganization;

  before(async () => {
    fal = await startFakeFal();
    const taskQueue = 'test-avatar-portraits';
    const providers = createProviderRegistry({
      simulator: createSimulator({ asyncLatencyMs: 300 }),
      adapters: createRealAdapters({ requestTimeoutMs: 5_000 }),
      platformCredentials: { fal: { apiKey: fal.apiKey, baseUrl: fal.baseUrl } },
      ownCredentials: async () => undefined,
      providerMode: 'live',
    });
    worker = await startTestWorker(taskQueue, { providers });
    api = await startExtraApi({ taskQueue, routing: { providerMode: 'live', configuredProviders: ['fal'] } });
    org = await createOrganization({ plan: 'pro', credits: 1_000_000 });
  });
  after(async () => {
    await worker.stop();
    await fal.close();
    await assertMoneyInvariants(org.id);
  });

  async function viaFal(body: Record<string, unknown>, endpointId: string) {
    const seen = fal.received.length;
    const res = await call('POST', '/v1/avatars', { key: org.liveKey, body, baseUrl: api.url });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const gen = await waitFor(
      async () => {
        const got = await call('GET', `/v1/generations/${res.body.id}`, { key: org.liveKey, baseUrl: api.url });
        return ['succeeded', 'failed', 'canceled'].includes(got.body?.status) ? got.body : undefined;
      },
      60_000,
      `generation ${res.body.id}`,
    );
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    assert.equal(gen.provider, 'fal');
    const submit = fal.received.slice(seen).find((r) => r.operation === 'submit' && r.endpointId === endpointId && (r.body as { image_url?: string }).image_url);
    assert.ok(submit, `a submit to ${endpointId}`);
    return submit.body as Record<string, string>;
  }

  it('text on MultiTalk: the stock portrait of avatar_id arrives as a real PNG at a signed URL', async () => {
    const input = await viaFal({ model: 'multitalk', text: 'Hello from a stock portrait.', avatar_id: 'ava_marcus' }, 'fal-ai/ai-avatar/single-text');
    assert.equal(input.text_input, 'Hello from a stock portrait.');
    const portrait = await download(input.image_url!);
    assert.equal(portrait.type, 'image/png');
    const meta = await sharp(portrait.data).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 512, 512]);
    // The corner is the avatar's own background: the portrait is ava_marcus's, not another's.
    const { data } = await sharp(portrait.data).extract({ left: 0, top: 0, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    assert.equal(`#${data.toString('hex')}`, findStockAvatar('ava_marcus')!.look.background);
  });

  it('text on MultiTalk without avatar_id: the default stock portrait', async () => {
    const input = await viaFal({ model: 'multitalk', text: 'Hello from the default portrait.' }, 'fal-ai/ai-avatar/single-text');
    const { data } = await sharp((await download(input.image_url!)).data)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.equal(`#${data.toString('hex')}`, findStockAvatar('ava_default')!.look.background);
  });

  it('lipsync on MultiTalk: the first frame of video_url arrives as a real image, with the audio, at fal-ai/ai-avatar', async () => {
    // Made through the main API (the simulator): a video and a speech of our own.
    const video = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a face', aspect_ratio: '16:9' } });
    const videoUrl: string = (await waitForGeneration(video.body.id, org.liveKey)).outputs[0].url;
    const speech = await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'openai-tts-1', text: 'Lip sync this.' } });
    const input = await viaFal({ model: 'multitalk', video_url: videoUrl, audio_url: speech.body.outputs[0].url }, 'fal-ai/ai-avatar');
    assert.ok(!input.video_url, 'a portrait model is sent no video');
    assert.equal((await download(input.audio_url!)).type, 'audio/mpeg');

    const frame = await download(input.image_url!);
    assert.equal(frame.type, 'image/png');
    const sent = await sharp(frame.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    // Our own reading of the video's first frame, decoded the same way: the same pixels.
    const videoFile = (await download(videoUrl)).data;
    const expectedPng = await runFfmpegToFile('png', (out) => ['-f', 'mp4', '-i', 'pipe:0', '-frames:v', '1', out], videoFile);
    const expected = await sharp(expectedPng).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([sent.info.width, sent.info.height], [expected.info.width, expected.info.height]);
    assert.ok(sent.info.width > sent.info.height, 'the 16:9 frame');
    assert.ok(sent.data.equals(expected.data), 'the first frame, pixel for pixel');
  });
});
