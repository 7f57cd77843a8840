import assert from 'node:assert/strict';
import { canonicalJson, sha256Hex } from '../../lib/canonical-json';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { startExtraApi, stack } from '../helpers/stack';

const image = { model: 'flux-schnell', prompt: 'a lighthouse at dusk' };
const withKey = (key: string) => ({ 'Idempotency-Key': key });
const newKey = () => `idem-${Math.random().toString(36).slice(2)}`;

async function generationsOf(orgId: string): Promise<string[]> {
  return (await stack().knex('generations').where({ organization_id: orgId }).select('id')).map((r: { id: string }) => r.id);
}

describe('idempotency (decisions §9)', () => {
  it('replays the first answer for the same key and body, without a second job or charge', async () => {
    const org = await createOrganization();
    const key = newKey();
    const first = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await call('POST', '/v1/images', { key: org.liveKey, body: { prompt: image.prompt, model: image.model }, headers: withKey(key) });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(await generationsOf(org.id), [first.body.id]);
    assert.deepEqual(await ledgerKinds(first.body.id), ['reserve', 'capture']);
    const wallet = await assertLedgerBalanced(org.id);
    assert.equal(wallet.availableCredits, 100_000 - first.body.charged_credits);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const org = await createOrganization();
    const key = newKey();
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) })).status, 200);
    const other = await call('POST', '/v1/images', { key: org.liveKey, body: { ...image, prompt: 'another' }, headers: withKey(key) });
    assert.equal(other.status, 422);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    assert.equal((await generationsOf(org.id)).length, 1);
    await assertLedgerBalanced(org.id);
  });

  it('answers 422 for the same key on another endpoint', async () => {
    const org = await createOrganization();
    const principal = await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first();
    const claim = (endpoint: string) =>
      stack().repos.idempotencyKeys.claim({
        organizationId: org.id,
        environment: 'live',
        key: 'k1',
        endpoint,
        requestHash: sha256Hex(canonicalJson({})),
        newResourceId: `gen_${Math.random()}`,
        now: new Date(),
        expiredBefore: new Date(Date.now() - 86_400_000),
        lockedUntil: new Date(Date.now() + 60_000),
      });
    assert.ok(principal);
    assert.equal((await claim('POST /v1/images')).kind, 'claimed');
    assert.equal((await claim('POST /v1/videos')).kind, 'mismatch');
    assert.equal((await claim('POST /v1/images')).kind, 'in_progress');
  });

  it('answers 409 idempotency_in_progress while the first request is still running', async () => {
    const org = await createOrganization();
    const key = newKey();
    const slow = { ...image, prompt: 'slow #slow:1500' };
    const first = call('POST', '/v1/images', { key: org.liveKey, body: slow, headers: withKey(key) });
    // In flight: the key is claimed and its job admitted, and the job runs for another 1.5 s.
    await waitFor(
      async () => {
        const claim = await stack().knex('idempotency_keys').where({ organization_id: org.id, key, state: 'in_progress' }).first();
        return claim && (await stack().knex('generations').where({ id: claim.resource_id, status: 'running' }).first());
      },
      10_000,
      'the first request to be claimed and running',
    );
    const second = await call('POST', '/v1/images', { key: org.liveKey, body: slow, headers: withKey(key) });
    assert.equal(second.status, 409);
    assert.equal(second.body.error.code, 'idempotency_in_progress');
    assert.equal((await first).status, 200);
    const third = await call('POST', '/v1/images', { key: org.liveKey, body: slow, headers: withKey(key) });
    assert.equal(third.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await generationsOf(org.id), [(await first).body.id]);
    await assertLedgerBalanced(org.id);
  });

  it('creates exactly one generation and one charge for 50 concurrent identical requests', async function () {
    this.timeout(60_000);
    const org = await createOrganization();
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 50 }, () => call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) })));
    const statuses = results.map((r) => r.status);
    assert.ok(
      statuses.every((s) => s === 200 || s === 409),
      `statuses ${statuses.join(',')}`,
    );
    const ids = new Set(results.filter((r) => r.status === 200).map((r) => r.body.id));
    assert.equal(ids.size, 1);
    const generations = await generationsOf(org.id);
    assert.equal(generations.length, 1);
    assert.deepEqual(await ledgerKinds(generations[0]!), ['reserve', 'capture']);
    const charged = (await stack().knex('generations').where({ id: generations[0] }).first()).charged_credits;
    assert.equal((await assertLedgerBalanced(org.id)).availableCredits, 100_000 - charged);
  });

  it('does not remember a request that failed validation', async () => {
    const org = await createOrganization();
    const key = newKey();
    const bad = await call('POST', '/v1/images', { key: org.liveKey, body: { ...image, num_outputs: 9 }, headers: withKey(key) });
    assert.equal(bad.status, 400);
    const good = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    assert.equal(good.status, 200);
    assert.equal(good.headers.get('idempotent-replayed'), null);
    await assertLedgerBalanced(org.id);
  });

  it('remembers a 402 insufficient_credits answer, as the request ran', async () => {
    const org = await createOrganization({ credits: 0 });
    const key = newKey();
    const refused = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    assert.equal(refused.status, 402);
    await call('POST', `/admin/v1/organizations/${org.id}/credits`, { key: stack().adminToken, body: { amount: 1000, reason: 'top-up' } });
    const replay = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    assert.equal(replay.status, 402);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(newKey()) })).status, 200);
    await assertLedgerBalanced(org.id);
  });

  it('forgets a key after 24 hours (injected clock)', async () => {
    const org = await createOrganization();
    const key = newKey();
    const first = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    const later = await startExtraApi({ clock: () => new Date(Date.now() + 24 * 3600_000 + 60_000) });
    const almost = await startExtraApi({ clock: () => new Date(Date.now() + 23 * 3600_000) });
    const within = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key), baseUrl: almost.url });
    assert.equal(within.headers.get('idempotent-replayed'), 'true');
    const after = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key), baseUrl: later.url });
    assert.equal(after.status, 200);
    assert.equal(after.headers.get('idempotent-replayed'), null);
    assert.notEqual(after.body.id, first.body.id);
    assert.equal((await generationsOf(org.id)).length, 2);
    await assertLedgerBalanced(org.id);
  });

  it('scopes keys to the organization and environment', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const key = newKey();
    const results = [];
    for (const apiKey of [org.liveKey, org.testKey, other.liveKey]) {
      results.push(await call('POST', '/v1/images', { key: apiKey, body: image, headers: withKey(key) }));
    }
    assert.ok(results.every((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null));
    assert.equal(new Set(results.map((r) => r.body.id)).size, 3);
    await assertLedgerBalanced(org.id);
    await assertLedgerBalanced(other.id);
  });

  it('rejects a malformed Idempotency-Key with 400 and param', async () => {
    const org = await createOrganization();
    for (const key of ['x'.repeat(256), 'tab\there']) {
      const res = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, 'Idempotency-Key');
    }
    assert.equal((await generationsOf(org.id)).length, 0);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('lets a retry take over a request that broke midway, attaching to the job it started', async () => {
    const org = await createOrganization();
    const key = newKey();
    const first = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    // As if the API process died after the job ran but before it stored the answer.
    await stack()
      .knex('idempotency_keys')
      .where({ organization_id: org.id, key })
      .update({ state: 'in_progress', response_status: null, response_body: null, locked_until: new Date(Date.now() - 1000) });
    const retry = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.id, first.body.id);
    assert.equal(retry.body.status, 'succeeded');
    assert.deepEqual(await ledgerKinds(first.body.id), ['reserve', 'capture']);
    assert.equal((await generationsOf(org.id)).length, 1);
    const replay = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    await assertLedgerBalanced(org.id);
  });

  it('a taken-over request whose first attempt never reached admission runs once', async () => {
    const org = await createOrganization();
    const key = newKey();
    const resourceId = `gen_takeover${Math.random().toString(36).slice(2, 14)}`;
    await stack()
      .knex('idempotency_keys')
      .insert({
        organization_id: org.id,
        environment: 'live',
        key,
        endpoint: 'POST /v1/images',
        request_hash: sha256Hex(canonicalJson(image)),
        resource_id: resourceId,
        state: 'in_progress',
        created_at: new Date(),
        locked_until: new Date(Date.now() - 1000),
      });
    const retry = await call('POST', '/v1/images', { key: org.liveKey, body: image, headers: withKey(key) });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.id, resourceId);
    await waitForGeneration(resourceId, org.liveKey);
    assert.deepEqual(await ledgerKinds(resourceId), ['reserve', 'capture']);
    await assertLedgerBalanced(org.id);
  });
});
