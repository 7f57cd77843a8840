import assert from 'node:assert/strict';
import { waitFor } from '../helpers/http';
import { prodStack } from './fixture';
import { assertProdLedgerBalanced, createProdOrganization, prodCall, prodGenerationIds, prodLedgerKinds, waitForProdGeneration } from './helpers';

// One Idempotency-Key, two API processes: the claim lives in Postgres, so whichever process a
// retry reaches, it makes one generation and one charge and answers what the first one answered.

const image = { model: 'flux-schnell', prompt: 'a lighthouse at dusk' };
const withKey = (key: string) => ({ 'Idempotency-Key': key });
const newKey = () => `prod-idem-${Math.random().toString(36).slice(2)}`;

/** The organization has exactly this one generation, reserved and captured once, and its wallet balances. */
async function assertOneGenerationChargedOnce(organizationId: string, generation: { id: string; charged_credits: number }): Promise<void> {
  assert.deepEqual(await prodGenerationIds(organizationId), [generation.id]);
  assert.deepEqual(await prodLedgerKinds(generation.id), ['reserve', 'capture']);
  assert.deepEqual(await assertProdLedgerBalanced(organizationId), { availableCredits: 100_000 - generation.charged_credits, reservedCredits: 0 });
}

describe('idempotency across the two API processes', function () {
  this.timeout(60_000);

  it('replays a sync answer on the other process: the same body, one generation, one charge', async () => {
    const [first, second] = prodStack().apiUrls;
    const org = await createProdOrganization();
    const key = newKey();
    const original = await prodCall('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key), baseUrl: first });
    assert.equal(original.status, 200, JSON.stringify(original.body));
    assert.equal(original.headers.get('idempotent-replayed'), null);
    const replay = await prodCall('POST', '/v1/images', { key: org.liveKey, body: { prompt: image.prompt, model: image.model }, headers: withKey(key), baseUrl: second });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, original.body);
    await assertOneGenerationChargedOnce(org.id, original.body);
  });

  it('replays an async 202 on the other process, and the job runs once', async () => {
    const [first, second] = prodStack().apiUrls;
    const org = await createProdOrganization();
    const key = newKey();
    const body = { model: 'hailuo-02', prompt: 'waves', duration_s: 6 };
    const original = await prodCall('POST', '/v1/videos', { key: org.liveKey, body, headers: withKey(key), baseUrl: second });
    assert.equal(original.status, 202, JSON.stringify(original.body));
    const replay = await prodCall('POST', '/v1/videos', { key: org.liveKey, body, headers: withKey(key), baseUrl: first });
    assert.equal(replay.status, 202);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, original.body);
    const done = await waitForProdGeneration(original.body.id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    assert.deepEqual(await prodGenerationIds(org.id), [original.body.id]);
    assert.deepEqual(await prodLedgerKinds(original.body.id), ['reserve', 'capture']);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000 - done.charged_credits, reservedCredits: 0 });
  });

  it('makes one generation and one charge for concurrent identical requests spread over both processes', async () => {
    const { apiUrls } = prodStack();
    const org = await createProdOrganization();
    const key = newKey();
    // The job runs for 2 s, so the later requests arrive while the first is still being handled.
    const slow = { ...image, prompt: 'one of many #slow:2000' };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => prodCall('POST', '/v1/images', { key: org.liveKey, body: slow, headers: withKey(key), baseUrl: apiUrls[i % 2] })),
    );
    const originals = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    assert.equal(originals.length, 1, `statuses ${results.map((r) => r.status).join(',')}`);
    const original = originals[0]!;
    for (const res of results.filter((r) => r !== original)) {
      if (res.status === 409) assert.equal(res.body.error.code, 'idempotency_in_progress');
      else assert.deepEqual([res.status, res.headers.get('idempotent-replayed'), res.body], [200, 'true', original.body]);
    }
    // Told to retry, a caller gets the first answer from either process once it is stored.
    for (const baseUrl of apiUrls) {
      const retry = await waitFor(
        async () => {
          const res = await prodCall('POST', '/v1/images', { key: org.liveKey, body: slow, headers: withKey(key), baseUrl });
          return res.status === 409 ? undefined : res;
        },
        20_000,
        'the first request to finish',
      );
      assert.deepEqual([retry.status, retry.headers.get('idempotent-replayed'), retry.body], [200, 'true', original.body]);
    }
    await assertOneGenerationChargedOnce(org.id, original.body);
  });

  it('answers 422 idempotency_key_reused on the other process for the same key with another body or endpoint, charging nothing more', async () => {
    const [first, second] = prodStack().apiUrls;
    const org = await createProdOrganization();
    const key = newKey();
    const original = await prodCall('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key), baseUrl: first });
    assert.equal(original.status, 200);
    const otherBody = await prodCall('POST', '/v1/images', { key: org.liveKey, body: { ...image, prompt: 'another' }, headers: withKey(key), baseUrl: second });
    const otherEndpoint = await prodCall('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'x' }, headers: withKey(key), baseUrl: second });
    for (const res of [otherBody, otherEndpoint]) {
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'idempotency_key_reused');
      assert.ok(res.body.error.message);
    }
    assert.deepEqual(await prodGenerationIds(org.id), [original.body.id]);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000 - original.body.charged_credits, reservedCredits: 0 });
  });

  it('refuses a malformed Idempotency-Key with 400 validation_failed naming it, charging nothing', async () => {
    const org = await createProdOrganization();
    for (const [i, key] of ['x'.repeat(256), 'tab\there'].entries()) {
      const res = await prodCall('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key), baseUrl: prodStack().apiUrls[i % 2] });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, 'Idempotency-Key');
    }
    assert.deepEqual(await prodGenerationIds(org.id), []);
    assert.deepEqual(await assertProdLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });
});
