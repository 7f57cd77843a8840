import assert from 'node:assert/strict';
import { call, createOrganization, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';

describe('GET /v1/generations', function () {
  this.timeout(60_000);

  it('pages newest first with limit and starting_after, and filters by modality and status', async () => {
    const org = await createOrganization();
    const made: string[] = [];
    for (const prompt of ['one', 'two', 'three #fail']) {
      made.push((await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt } })).body.id);
    }
    const video = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'v' } });
    await waitForGeneration(video.body.id, org.liveKey);
    made.push(video.body.id);

    const first = await call('GET', '/v1/generations?limit=3', { key: org.liveKey });
    assert.equal(first.status, 200);
    assert.equal(first.body.object, 'list');
    assert.deepEqual(
      first.body.data.map((g: { id: string }) => g.id),
      [...made].reverse().slice(0, 3),
    );
    assert.equal(first.body.has_more, true);
    assert.ok(first.body.data[0].outputs[0].url.includes('signature='));
    const next = await call('GET', `/v1/generations?limit=3&starting_after=${first.body.data[2].id}`, { key: org.liveKey });
    assert.deepEqual(
      next.body.data.map((g: { id: string }) => g.id),
      [made[0]],
    );
    assert.equal(next.body.has_more, false);

    const videos = await call('GET', '/v1/generations?modality=video', { key: org.liveKey });
    assert.deepEqual(
      videos.body.data.map((g: { id: string }) => g.id),
      [video.body.id],
    );
    const failed = await call('GET', '/v1/generations?status=failed&modality=image', { key: org.liveKey });
    assert.deepEqual(
      failed.body.data.map((g: { id: string }) => g.id),
      [made[2]],
    );
    assert.deepEqual((await call('GET', '/v1/generations', { key: org.testKey })).body.data, []);
    await assertLedgerBalanced(org.id);
  });

  it('filters by model and by the API key that created each generation, which each generation names', async () => {
    const org = await createOrganization();
    const other = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'second' } });
    assert.equal(other.status, 201);
    const made = {
      schnellByOwner: (await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a' } })).body,
      devByOwner: (await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-dev', prompt: 'b' } })).body,
      schnellBySecond: (await call('POST', '/v1/images', { key: other.body.secret, body: { model: 'flux-schnell', prompt: 'c' } })).body,
    };
    const owner = (await call('GET', '/v1/api-keys/current', { key: org.liveKey })).body.id as string;
    assert.equal(made.schnellByOwner.api_key_id, owner);
    assert.equal(made.schnellBySecond.api_key_id, other.body.id);
    const ids = async (query: string) => (await call('GET', `/v1/generations?${query}`, { key: org.liveKey })).body.data.map((g: { id: string }) => g.id);
    assert.deepEqual(await ids('model=flux-schnell'), [made.schnellBySecond.id, made.schnellByOwner.id]);
    assert.deepEqual(await ids(`api_key=${owner}`), [made.devByOwner.id, made.schnellByOwner.id]);
    assert.deepEqual(await ids(`api_key=${other.body.id}&model=flux-schnell`), [made.schnellBySecond.id]);
    assert.deepEqual(await ids(`api_key=${other.body.id}&model=flux-dev`), []);
    assert.deepEqual(await ids('model=no-such-model'), [], 'an unknown model filters everything out, as a Stripe filter does');
    await assertLedgerBalanced(org.id);
  });

  it('answers 400 for bad parameters and 404 for an unknown starting_after', async () => {
    const org = await createOrganization();
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['modality=hologram', 'modality'],
      ['status=done', 'status'],
      ['order=asc', 'order'],
      ['model=', 'model'],
      [`api_key=${'k'.repeat(101)}`, 'api_key'],
    ]) {
      const res = await call('GET', `/v1/generations?${query}`, { key: org.liveKey });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.param, param);
    }
    const other = await createOrganization();
    const theirs = (await call('POST', '/v1/images', { key: other.liveKey, body: { model: 'flux-schnell', prompt: 'x' } })).body.id;
    const res = await call('GET', `/v1/generations?starting_after=${theirs}`, { key: org.liveKey });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.param, 'starting_after');
    await assertLedgerBalanced(other.id);
  });
});
