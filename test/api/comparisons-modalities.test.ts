import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { download } from '../helpers/media';
import { waitForComparison } from '../helpers/comparisons';
import { uploadImage } from '../helpers/uploads';

// Comparisons run on every modality (decisions §5): the prompt fills the modality's text input,
// params_shared the rest, and each child is an ordinary generation of that modality with real files.

interface Child {
  id: string;
  model: string;
  status: string;
  charged_credits: number;
  refunded_credits: number;
  outputs: { url: string; mime: string; width?: number; height?: number; duration_s?: string }[];
  text?: string;
  usage?: { input_tokens: number; output_tokens: number };
}

/**
 * Runs the comparison to its verdict and checks what every modality shares: all children succeeded,
 * each settled its own reservation, the totals add up, and every output URL serves its media type.
 */
async function compareAll(org: TestOrganization, body: { prompt: string; models: string[]; params_shared?: Record<string, unknown> }, modality: string): Promise<Child[]> {
  const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body });
  assert.equal(created.status, 202, JSON.stringify(created.body));
  assert.equal(created.body.modality, modality);
  const done = await waitForComparison(created.body.id, org.liveKey);
  assert.equal(done.status, 'succeeded', JSON.stringify(done.generations));
  assert.deepEqual(done.models, body.models);
  let reserved = 0;
  for (const child of done.generations as Child[]) {
    assert.equal(child.status, 'succeeded');
    const alone = (await call('GET', `/v1/generations/${child.id}`, { key: org.liveKey })).body;
    assert.deepEqual([alone.modality, alone.model, alone.charged_credits + alone.refunded_credits], [modality, child.model, alone.reserved_credits]);
    reserved += alone.reserved_credits;
    for (const output of child.outputs) assert.equal((await download(output.url)).type, output.mime);
  }
  const sum = (pick: (c: Child) => number) => (done.generations as Child[]).reduce((total, c) => total + pick(c), 0);
  assert.deepEqual([done.reserved_credits, done.charged_credits, done.refunded_credits], [reserved, sum((c) => c.charged_credits), sum((c) => c.refunded_credits)]);
  await assertLedgerBalanced(org.id);
  return done.generations;
}

const outputsOf = (children: Child[]) => children.map((c) => c.outputs.map((o) => o.mime));

describe('comparisons on every modality', function () {
  this.timeout(90_000);
  let org: TestOrganization;
  before(async () => {
    // Studio, for a second text-to-3D model (rodin is Studio+).
    org = await createOrganization({ plan: 'studio', credits: 100_000 });
  });

  it('image: two models render the prompt at the shared aspect ratio', async () => {
    const children = await compareAll(org, { prompt: 'a lighthouse at dusk', models: ['flux-schnell', 'imagen-4-fast'], params_shared: { aspect_ratio: '16:9' } }, 'image');
    assert.deepEqual(outputsOf(children), [['image/png'], ['image/png']]);
    for (const child of children) assert.ok(child.outputs[0]!.width! > child.outputs[0]!.height!, 'landscape');
  });

  it('image-to-image: params_shared.image_url, one upload, is the input of both models', async () => {
    const imageUrl = await uploadImage(org, { width: 320, height: 200 });
    const children = await compareAll(org, { prompt: 'as a watercolour', models: ['flux-dev', 'gpt-image-1'], params_shared: { image_url: imageUrl } }, 'image');
    assert.deepEqual(outputsOf(children), [['image/png'], ['image/png']]);
  });

  it('video: two models make MP4s of the shared duration', async () => {
    const children = await compareAll(org, { prompt: 'surf at dawn', models: ['hailuo-02', 'seedance-1-pro-fast'], params_shared: { duration_s: 6 } }, 'video');
    assert.deepEqual(outputsOf(children), [['video/mp4'], ['video/mp4']]);
    assert.deepEqual(
      children.map((c) => c.outputs[0]!.duration_s),
      ['6', '6'],
    );
  });

  it('voice: the prompt is the text two TTS models speak', async () => {
    const children = await compareAll(org, { prompt: 'Hello from a comparison of two voices.', models: ['openai-tts-1', 'eleven-flash-v2.5'] }, 'voice');
    assert.deepEqual(outputsOf(children), [['audio/mpeg'], ['audio/mpeg']]);
  });

  it('music: two models make songs of the shared length', async () => {
    const children = await compareAll(org, { prompt: 'a lofi beat', models: ['minimax-music-v2', 'ace-step'], params_shared: { duration_s: 15 } }, 'music');
    assert.deepEqual(outputsOf(children), [['audio/mpeg'], ['audio/mpeg']]);
    assert.deepEqual(
      children.map((c) => c.outputs[0]!.duration_s),
      ['15', '15'],
    );
  });

  it('avatar: the prompt is the text two avatar models say, a stock avatar and a portrait photo each', async () => {
    const imageUrl = await uploadImage(org, { width: 256, height: 320 });
    const children = await compareAll(
      org,
      { prompt: 'Welcome to the tour.', models: ['veed-avatars', 'veed-fabric-1.0'], params_shared: { avatar_id: 'ava_emily', image_url: imageUrl } },
      'avatar',
    );
    assert.deepEqual(outputsOf(children), [['video/mp4'], ['video/mp4']]);
    const [stock, portrait] = await Promise.all(children.map(async (c) => (await call('GET', `/v1/generations/${c.id}`, { key: org.liveKey })).body));
    assert.deepEqual([stock.params.avatar_id, stock.params.image_url], ['ava_emily', undefined]);
    assert.deepEqual([portrait.params.avatar_id, portrait.params.image_url], [undefined, imageUrl]);
  });

  it('chat: the prompt is one user message; each model answers with text within the shared max_tokens', async () => {
    const children = await compareAll(org, { prompt: 'Say something #tokens:40', models: ['gpt-5-mini', 'claude-haiku-4.5'], params_shared: { max_tokens: 100 } }, 'chat');
    for (const child of children) {
      assert.ok(child.text && child.text.length > 0, `${child.model} answered`);
      assert.deepEqual(child.outputs, []);
      assert.equal(child.usage?.output_tokens, 40);
      const alone = (await call('GET', `/v1/generations/${child.id}`, { key: org.liveKey })).body;
      assert.deepEqual([alone.params.max_tokens, alone.text], [100, child.text]);
    }
  });

  it('3d: two text-to-3D models make GLB meshes', async () => {
    const children = await compareAll(org, { prompt: 'a teapot', models: ['tripo-v2.5-text', 'rodin'], params_shared: { mesh_complexity: 'low', texture_size: '1024' } }, '3d');
    assert.deepEqual(outputsOf(children), [['model/gltf-binary'], ['model/gltf-binary']]);
  });

  it('upscale: params_shared.image_url, an upload, is enlarged by both models', async () => {
    const imageUrl = await uploadImage(org, { width: 320, height: 200 });
    const children = await compareAll(org, { prompt: 'sharper', models: ['real-esrgan', 'codeformer'], params_shared: { image_url: imageUrl, scale_factor: '2' } }, 'upscale');
    assert.deepEqual(outputsOf(children), [['image/png'], ['image/png']]);
    assert.deepEqual(
      children.map((c) => [c.outputs[0]!.width, c.outputs[0]!.height]),
      [
        [640, 400],
        [640, 400],
      ],
    );
  });
});
