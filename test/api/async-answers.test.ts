import assert from 'node:assert/strict';
import { MODALITY_MODE, type Modality } from '../../domain/modalities';
import { call, createOrganization, waitForGeneration, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// Async endpoints always answer 202 (spec §1; issue 9, item 15): a first request, a cache hit (a
// 202 whose generation has already succeeded), an Idempotency-Key replay of either, and a retry
// that takes over a broken request after its job has finished.

const newKey = () => `async-${Math.random().toString(36).slice(2)}`;

/** A seeded request for every async modality whose body takes a seed (upscale's has none: see below). */
const SEEDED: [Modality, string, Record<string, unknown>][] = [
  ['video', '/v1/videos', { model: 'hailuo-02', prompt: 'a paper boat on a canal', seed: 5 }],
  ['music', '/v1/music', { model: 'minimax-music-v2', prompt: 'a calm piano loop', duration_s: 15, seed: 5 }],
  ['avatar', '/v1/avatars', { model: 'veed-avatars', text: 'Welcome to the demo.', seed: 5 }],
  ['3d', '/v1/three-d', { model: 'tripo-v2.5-text', prompt: 'a wooden chair', mesh_complexity: 'low', seed: 5 }],
];

describe('async endpoints always answer 202', function () {
  this.timeout(60_000);
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization();
  });
  after(() => assertLedgerBalanced(org.id));

  it('covers every async modality but upscale, whose body has no seed and so is never served from the cache', () => {
    const asyncModalities = Object.entries(MODALITY_MODE)
      .filter(([, mode]) => mode === 'async')
      .map(([modality]) => modality);
    assert.deepEqual([...SEEDED.map(([modality]) => modality), 'upscale'].sort(), asyncModalities.sort());
  });

  for (const [modality, path, body] of SEEDED) {
    it(`${path}: a cache hit is a 202 whose generation has succeeded, and its replay is the same 202`, async () => {
      const first = await call('POST', path, { key: org.liveKey, body, headers: { 'Idempotency-Key': newKey() } });
      assert.equal(first.status, 202, JSON.stringify(first.body));
      assert.equal(first.body.status, 'queued');
      assert.equal((await waitForGeneration(first.body.id, org.liveKey)).status, 'succeeded');

      const key = newKey();
      const hit = await call('POST', path, { key: org.liveKey, body, headers: { 'Idempotency-Key': key } });
      assert.equal(hit.status, 202, JSON.stringify(hit.body));
      assert.equal(hit.body.modality, modality);
      assert.equal(hit.body.status, 'succeeded');
      assert.equal(hit.body.cache_hit, true);
      assert.equal(hit.body.charged_credits, 0);
      assert.equal(hit.body.outputs.length, 1);

      const replay = await call('POST', path, { key: org.liveKey, body, headers: { 'Idempotency-Key': key } });
      assert.equal(replay.status, 202);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, hit.body);
      assert.deepEqual(await ledgerKinds(hit.body.id), []);
    });
  }

  it('answers 202 to a retry that takes over a broken async request after its job has finished', async () => {
    const key = newKey();
    const body = { model: 'hailuo-02', prompt: 'a lighthouse in fog' };
    const first = await call('POST', '/v1/videos', { key: org.liveKey, body, headers: { 'Idempotency-Key': key } });
    assert.equal(first.status, 202);
    assert.equal((await waitForGeneration(first.body.id, org.liveKey)).status, 'succeeded');
    // As if the API process had died before it stored its answer (test/api/idempotency.test.ts does the same).
    await stack()
      .knex('idempotency_keys')
      .where({ organization_id: org.id, key })
      .update({ state: 'in_progress', response_status: null, response_body: null, locked_until: new Date(Date.now() - 1000) });

    const retry = await call('POST', '/v1/videos', { key: org.liveKey, body, headers: { 'Idempotency-Key': key } });
    assert.equal(retry.status, 202, JSON.stringify(retry.body));
    assert.equal(retry.body.id, first.body.id);
    assert.equal(retry.body.status, 'succeeded');
    const replay = await call('POST', '/v1/videos', { key: org.liveKey, body, headers: { 'Idempotency-Key': key } });
    assert.equal(replay.status, 202);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await ledgerKinds(first.body.id), ['reserve', 'capture']);
  });

  it('answers 202 to an upscale, and to its repeat, which is a new job', async () => {
    const image = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'small', seed: 1 } });
    const body = { model: 'real-esrgan', image_url: image.body.outputs[0].url };
    const first = await call('POST', '/v1/upscale', { key: org.liveKey, body });
    assert.equal(first.status, 202);
    await waitForGeneration(first.body.id, org.liveKey);
    const again = await call('POST', '/v1/upscale', { key: org.liveKey, body });
    assert.equal(again.status, 202);
    assert.equal(again.body.cache_hit, false);
    await waitForGeneration(again.body.id, org.liveKey);
  });
});
