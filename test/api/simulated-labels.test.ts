import assert from 'node:assert/strict';
import { waitForComparison } from '../helpers/comparisons';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { decodeRgb, layoutFor, readLabel, videoFrame } from '../helpers/label-reader';
import { assertLedgerBalanced } from '../helpers/ledger';
import { download } from '../helpers/media';

// Issue 38, item 8, through the API: what the simulator delivers says which model made it and from
// what prompt, so a comparison of simulated outputs tells its models apart at a glance.

describe('simulated outputs say what they are', function () {
  this.timeout(90_000);
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization({ plan: 'pro', credits: 100_000 });
  });
  after(() => assertLedgerBalanced(org.id));

  it('a comparison of three image models on one prompt and seed: each output carries its own model id and the prompt', async () => {
    const prompt = 'a lighthouse at dusk, in oils';
    const models = ['flux-schnell', 'flux-dev', 'imagen-4-fast'];
    const res = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt, models, params_shared: { seed: 5 } } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await waitForComparison(res.body.id, org.liveKey);
    const labels = [];
    for (const child of done.generations) {
      assert.equal(child.status, 'succeeded', JSON.stringify(child));
      const picture = await decodeRgb((await download(child.outputs[0].url)).data);
      labels.push([child.model, ...readLabel(picture, layoutFor(picture, { model: child.model, prompt }))]);
    }
    assert.deepEqual(labels.sort(), models.map((model) => [model, model, prompt]).sort());
  });

  it('a video and an avatar: their frames carry the model and the prompt (the avatar: its text)', async () => {
    const video = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'surf at dawn', duration_s: 6, aspect_ratio: '9:16' } });
    const avatar = await call('POST', '/v1/avatars', { key: org.liveKey, body: { model: 'veed-avatars', text: 'Hello from the label test.', avatar_id: 'ava_marcus' } });
    for (const [res, model, prompt] of [
      [video, 'hailuo-02', 'surf at dawn'],
      [avatar, 'veed-avatars', 'Hello from the label test.'],
    ] as const) {
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const gen = await waitForGeneration(res.body.id, org.liveKey);
      assert.equal(gen.status, 'succeeded', JSON.stringify(gen));
      const frame = await videoFrame((await download(gen.outputs[0].url)).data, 1);
      assert.deepEqual(readLabel(frame, layoutFor(frame, { model, prompt })), [model, prompt]);
    }
  });
});
