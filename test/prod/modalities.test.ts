import assert from 'node:assert/strict';
import type { TestOrganization } from '../helpers/http';
import { download, imageMeta, probeUrl, readGlb } from '../helpers/media';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodGenerationIds, prodLedgerKinds, waitForProdGeneration } from './helpers';

// Every modality end to end on the production topology, through the proxy in front of both APIs:
// the request is admitted by one API process, run by either worker process on the Temporal server
// on Postgres, and polled and downloaded through whichever API the proxy picks.

const ENDPOINTS = ['/v1/images', '/v1/videos', '/v1/voice', '/v1/music', '/v1/avatars', '/v1/chat', '/v1/three-d', '/v1/upscale'];

describe('every modality on the production topology', function () {
  this.timeout(90_000);
  let org: TestOrganization;
  let charged = 0;
  before(async () => {
    org = await createProdOrganization();
  });

  /** A finished generation: sync ones answer 200 finished, async ones 202 queued and are polled. */
  async function generate(endpoint: string, body: Record<string, unknown>, mode: 'sync' | 'async') {
    const res = await prodCall('POST', endpoint, { key: org.liveKey, body });
    assert.equal(res.status, mode === 'sync' ? 200 : 202, JSON.stringify(res.body));
    const generation = mode === 'sync' ? res.body : await waitForProdGeneration(res.body.id, org.liveKey);
    assert.equal(generation.status, 'succeeded', JSON.stringify(generation));
    charged += generation.charged_credits;
    return generation;
  }

  it('makes an image (sync): a PNG of the aspect ratio, charged what was reserved', async () => {
    const gen = await generate('/v1/images', { model: 'flux-schnell', prompt: 'a lighthouse at dawn', aspect_ratio: '16:9' }, 'sync');
    assert.equal(gen.charged_credits, gen.reserved_credits);
    const meta = await imageMeta(gen.outputs[0].url);
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1344, 756]);
    assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('makes a video (async): an H.264 MP4 of the requested length', async () => {
    const gen = await generate('/v1/videos', { model: 'hailuo-02', prompt: 'surf at dawn', duration_s: 6, aspect_ratio: '9:16' }, 'async');
    const info = await probeUrl(gen.outputs[0].url);
    assert.equal(info.streams.find((s) => s.codec_type === 'video')?.codec_name, 'h264');
    assert.ok(Math.abs(Number(info.format.duration) - 6) < 0.1, `duration ${info.format.duration}`);
    assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('speaks text (sync voice): an MP3 whose length the output states', async () => {
    const gen = await generate('/v1/voice', { model: 'openai-tts-1', text: 'Hello from the production topology.' }, 'sync');
    assert.equal(gen.outputs[0].mime, 'audio/mpeg');
    const info = await probeUrl(gen.outputs[0].url);
    assert.equal(info.streams[0]?.codec_name, 'mp3');
    assert.ok(Math.abs(Number(info.format.duration) - Number(gen.outputs[0].duration_s)) < 0.1);
    assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('makes music (async): an MP3 of the requested length', async () => {
    const gen = await generate('/v1/music', { model: 'minimax-music-v2', prompt: 'lofi beat', duration_s: 20 }, 'async');
    const info = await probeUrl(gen.outputs[0].url);
    assert.equal(info.streams[0]?.codec_name, 'mp3');
    assert.ok(Math.abs(Number(info.format.duration) - 20) < 0.1, `duration ${info.format.duration}`);
    assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('makes a talking avatar (async): an MP4 with a video and an audio track', async () => {
    const gen = await generate('/v1/avatars', { model: 'veed-avatars', text: 'Welcome to the tour.', avatar_id: 'ava_emily' }, 'async');
    const info = await probeUrl(gen.outputs[0].url);
    assert.deepEqual(info.streams.map((s) => s.codec_type).sort(), ['audio', 'video']);
    assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('completes a chat (sync): charged on the tokens used, the rest of the reservation released', async () => {
    const res = await prodCall('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages: [{ content: 'Say something #tokens:300' }], max_tokens: 2000 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.usage.output_tokens, 300);
    assert.equal(res.body.message.content.split(' ').length, 300);
    assert.equal(res.body.reserved_credits, res.body.charged_credits + res.body.refunded_credits);
    assert.ok(res.body.refunded_credits > 0, 'most of the max_tokens reservation is released');
    assert.deepEqual(await prodLedgerKinds(res.body.id), ['reserve', 'capture', 'release']);
    charged += res.body.charged_credits;
  });

  it('makes a 3D model (async): a GLB with a textured mesh', async () => {
    const gen = await generate('/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'a teapot', texture_size: '1024', mesh_complexity: 'low' }, 'async');
    assert.equal((await download(gen.outputs[0].url)).type, 'model/gltf-binary');
    const root = (await readGlb(gen.outputs[0].url)).getRoot();
    assert.ok(root.listMeshes()[0]?.listPrimitives()[0]?.getAttribute('POSITION'));
    assert.deepEqual(root.listTextures()[0]?.getSize(), [1024, 1024]);
    assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('upscales one of its own output images (async): a PNG twice its size', async () => {
    const image = await generate('/v1/images', { model: 'flux-schnell', prompt: 'small', aspect_ratio: '16:9' }, 'sync');
    const gen = await generate('/v1/upscale', { model: 'real-esrgan', image_url: image.outputs[0].url, scale_factor: '2' }, 'async');
    const meta = await imageMeta(gen.outputs[0].url);
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 2688, 1512]);
    assert.deepEqual(await prodLedgerKinds(gen.id), ['reserve', 'capture']);
  });

  it('leaves the wallet short by exactly what was charged, the ledger balanced', async () => {
    const wallet = await assertProdLedgerBalanced(org.id);
    assert.deepEqual(wallet, { availableCredits: 100_000 - charged, reservedCredits: 0 });
  });

  it('refuses a body with an unknown field on every endpoint with 400 validation_failed, charging nothing', async () => {
    const fresh = await createProdOrganization();
    for (const endpoint of ENDPOINTS) {
      const res = await prodCall('POST', endpoint, { key: fresh.liveKey, body: { model: 'flux-schnell', prompt: 'x', colour: 'blue' } });
      assert.equal(res.status, 400, `${endpoint}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation_failed', endpoint);
      assert.ok(res.body.error.message, endpoint);
    }
    assert.deepEqual(await prodGenerationIds(fresh.id), []);
    assert.deepEqual(await assertProdLedgerBalanced(fresh.id), { availableCredits: 100_000, reservedCredits: 0 });
  });
});
