import assert from 'node:assert/strict';
import sharp from 'sharp';
import { findModel } from '../../domain/catalog';
import { estimateCredits } from '../../domain/pricing';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { imageMeta, probeUrl, readGlb } from '../helpers/media';

// Every creation endpoint end to end: the HTTP contract, the money, and the file parsed back by a
// real decoder (ffprobe, sharp, glTF-Transform).

const price = (slug: string, measure: Parameters<typeof estimateCredits>[1], plan: 'pro' | 'studio' = 'pro') => estimateCredits(findModel(slug)!, measure, plan);

async function finished(org: TestOrganization, res: { status: number; body: { id: string; status: string } }) {
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.equal(res.body.status, 'queued');
  return waitForGeneration(res.body.id, org.liveKey);
}

describe('creation endpoints (all eight modalities)', function () {
  this.timeout(60_000);
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization({ plan: 'pro' });
  });
  after(() => assertLedgerBalanced(org.id));

  it('POST /v1/videos: 202, then an H.264 MP4 of the requested length and aspect ratio', async () => {
    const res = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'surf at dawn', duration_s: 6, aspect_ratio: '9:16' } });
    assert.equal(res.body.reserved_credits, price('hailuo-02', { durationMs: 6000 }));
    const gen = await finished(org, res);
    assert.equal(gen.status, 'succeeded');
    assert.equal(gen.charged_credits, gen.reserved_credits);
    const [output] = gen.outputs;
    assert.equal(output.mime, 'video/mp4');
    assert.equal(output.duration_s, '6');
    const info = await probeUrl(output.url);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    assert.equal(video.codec_name, 'h264');
    assert.ok(Math.abs(Number(info.format.duration) - 6) < 0.1);
    assert.ok(video.height! > video.width!, 'portrait');
    assert.deepEqual([output.width, output.height], [video.width, video.height]);
    assert.deepEqual(await ledgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('POST /v1/videos with image_url: image-to-video from one of our own file URLs', async () => {
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a still' } });
    const res = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'kling-2.1-pro', prompt: 'it moves', image_url: image.body.outputs[0].url } });
    const gen = await finished(org, res);
    assert.equal(gen.status, 'succeeded');
    assert.equal(gen.outputs[0].duration_s, '5');
  });

  it('POST /v1/voice: tts answers 200 with an MP3; transcription of it answers text; clone speaks the text', async () => {
    const text = 'Hello from the simulator, reading a short sentence aloud.';
    const tts = await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'openai-tts-1', text } });
    assert.equal(tts.status, 200, JSON.stringify(tts.body));
    assert.equal(tts.body.status, 'succeeded');
    assert.equal(tts.body.charged_credits, price('openai-tts-1', { characters: text.length }));
    const audio = tts.body.outputs[0];
    assert.equal(audio.mime, 'audio/mpeg');
    const info = await probeUrl(audio.url);
    assert.equal(info.streams[0]!.codec_name, 'mp3');
    assert.ok(Math.abs(Number(info.format.duration) - Number(audio.duration_s)) < 0.1);

    const transcript = await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'whisper-1', operation: 'transcription', audio_url: audio.url } });
    assert.equal(transcript.status, 200, JSON.stringify(transcript.body));
    assert.equal(transcript.body.status, 'succeeded');
    assert.ok(transcript.body.text.length > 0);
    assert.deepEqual(transcript.body.outputs, []);
    assert.ok(transcript.body.charged_credits >= 1);

    const clone = await call('POST', '/v1/voice', {
      key: org.liveKey,
      body: { model: 'eleven-flash-v2.5', operation: 'voice_clone', text: 'In your voice.', audio_url: audio.url },
    });
    assert.equal(clone.status, 200, JSON.stringify(clone.body));
    assert.equal(clone.body.outputs[0].mime, 'audio/mpeg');
  });

  it('POST /v1/music: 202, then an MP3 of the requested length', async () => {
    const res = await call('POST', '/v1/music', { key: org.liveKey, body: { model: 'minimax-music-v2', prompt: 'lofi beat', duration_s: 20, with_vocals: true } });
    assert.equal(res.body.reserved_credits, price('minimax-music-v2', {}));
    const gen = await finished(org, res);
    assert.equal(gen.status, 'succeeded');
    assert.equal(gen.outputs[0].duration_s, '20');
    const info = await probeUrl(gen.outputs[0].url);
    assert.ok(Math.abs(Number(info.format.duration) - 20) < 0.1);
  });

  it('POST /v1/avatars with image_url: a portrait model animates an uploaded photo, and GET /v1/models says which models do', async () => {
    const image = (await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a portrait', aspect_ratio: '1:1' } })).body;
    const res = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: 'veed-fabric-1.0', text: 'Hello from a photo.', image_url: image.outputs[0].url } });
    const gen = await finished(org, res);
    assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
    assert.equal(gen.outputs[0].mime, 'video/mp4');
    const models = (await call('GET', '/v1/models?modality=avatar', { key: org.liveKey })).body.data as { slug: string; animates_portrait: boolean }[];
    const animating = models
      .filter((m) => m.animates_portrait)
      .map((m) => m.slug)
      .sort();
    assert.deepEqual(animating, ['multitalk', 'omnihuman-1.5', 'veed-fabric-1.0']);
    await assertLedgerBalanced(org.id);
  });

  it('POST /v1/avatars: text-to-avatar and lipsync each make an MP4 with sound, billed per second', async () => {
    const text = 'Welcome to our product tour, this takes a few seconds.';
    const talking = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: 'veed-avatars', text, avatar_id: 'ava_emily' } });
    const gen = await finished(org, talking);
    assert.equal(gen.status, 'succeeded');
    const info = await probeUrl(gen.outputs[0].url);
    assert.deepEqual(info.streams.map((s) => s.codec_type).sort(), ['audio', 'video']);

    const video = gen.outputs[0].url;
    const speech = (await call('POST', '/v1/voice', { key: org.liveKey, body: { model: 'openai-tts-1', text: 'Lip sync me.' } })).body.outputs[0];
    const lipsync = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: 'latentsync', video_url: video, audio_url: speech.url } });
    const synced = await finished(org, lipsync);
    assert.equal(synced.status, 'succeeded', JSON.stringify(synced));
    const syncedInfo = await probeUrl(synced.outputs[0].url);
    assert.ok(Math.abs(Number(syncedInfo.format.duration) - Number(speech.duration_s)) < 0.2);
  });

  it('POST /v1/chat: 200 chat completion, reserved on max_tokens, charged on the tokens used', async () => {
    const res = await call('POST', '/v1/chat', {
      key: org.liveKey,
      body: { model: 'gpt-5-mini', messages: [{ content: 'Say something #tokens:300' }], max_tokens: 2000, temperature: 0.2 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.object, 'chat.completion');
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.usage.output_tokens, 300);
    const reserved = price('gpt-5-mini', { outputTokens: 2000 });
    const charged = price('gpt-5-mini', { outputTokens: 300 });
    assert.deepEqual([res.body.reserved_credits, res.body.charged_credits, res.body.refunded_credits], [reserved, charged, reserved - charged]);
    assert.equal(res.body.message.content.split(' ').length, 300);
    assert.deepEqual(await ledgerKinds(res.body.id), ['reserve', 'capture', 'release']);
    const fetched = await call('GET', `/v1/generations/${res.body.id}`, { key: org.liveKey });
    assert.equal(fetched.body.text, res.body.message.content);
  });

  it('POST /v1/chat: a failed completion carries error_message and is refunded', async () => {
    const res = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages: [{ content: 'break #fail' }] } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'failed');
    assert.ok(res.body.error_message);
    assert.equal(res.body.charged_credits, 0);
    assert.equal(res.body.refunded_credits, res.body.reserved_credits);
    assert.equal(res.body.reserved_credits, price('gpt-5-mini', { outputTokens: 1024 }));
  });

  it('POST /v1/three-d: 202, then a GLB with a textured mesh', async () => {
    const res = await call('POST', '/v1/three-d', { key: org.liveKey, body: { model: 'tripo-v2.5-text', prompt: 'a teapot', texture_size: '1024', mesh_complexity: 'low' } });
    const gen = await finished(org, res);
    assert.equal(gen.status, 'succeeded');
    assert.equal(gen.outputs[0].mime, 'model/gltf-binary');
    const doc = await readGlb(gen.outputs[0].url);
    const root = doc.getRoot();
    assert.ok(root.listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION'));
    assert.deepEqual(root.listTextures()[0]!.getSize(), [1024, 1024]);
    assert.equal(root.listSkins().length, 0);
  });

  it('POST /v1/three-d rigged on a rigging model: a GLB with a skeleton', async () => {
    const studio = await createOrganization({ plan: 'studio' });
    const res = await call('POST', '/v1/three-d', { key: studio.liveKey, body: { model: 'meshy-6-text', prompt: 'a robot', rigged: true, mesh_complexity: 'low' } });
    const gen = await waitForGeneration((res.body as { id: string }).id, studio.liveKey);
    assert.equal(gen.status, 'succeeded');
    const skins = (await readGlb(gen.outputs[0].url)).getRoot().listSkins();
    assert.equal(skins.length, 1);
    assert.ok(skins[0]!.listJoints().length >= 2);
    await assertLedgerBalanced(studio.id);
  });

  it('POST /v1/upscale: 202, then the input image enlarged by scale_factor, priced per output megapixel', async () => {
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'small', aspect_ratio: '16:9' } });
    const res = await call('POST', '/v1/upscale', { key: org.liveKey, body: { model: 'real-esrgan', image_url: image.body.outputs[0].url, scale_factor: '2' } });
    assert.equal(res.body.reserved_credits, price('real-esrgan', { widthPx: 1344 * 2, heightPx: 756 * 2 }));
    const gen = await finished(org, res);
    assert.equal(gen.status, 'succeeded');
    const meta = await imageMeta(gen.outputs[0].url);
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 2688, 1512]);
  });

  it('uploads an image (POST /v1/uploads, then PUT) and upscales it by its file_url', async () => {
    const data = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const upload = await call('POST', '/v1/uploads', { key: org.liveKey, body: { filename: 'photo.png', content_type: 'image/png', size_bytes: data.length } });
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    const put = await fetch(upload.body.upload_url, { method: 'PUT', headers: upload.body.headers, body: data });
    assert.equal(put.status, 200);
    const res = await call('POST', '/v1/upscale', { key: org.liveKey, body: { model: 'codeformer', image_url: upload.body.file_url, scale_factor: '4', face_enhance: true } });
    const gen = await finished(org, res);
    assert.equal(gen.status, 'succeeded');
    const meta = await imageMeta(gen.outputs[0].url);
    assert.deepEqual([meta.width, meta.height], [1280, 800]);
  });
});
