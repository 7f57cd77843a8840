import assert from 'node:assert/strict';
import { call, createOrganization, waitFor } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';
import { startStackWithSlowModels, waitForComparison, waitForRunning } from '../helpers/comparisons';

// POST /v1/comparisons/{id}/cancel (decisions §5): cancels the children still running, each of
// which refunds its whole reservation; what already finished stays finished and charged; the
// comparison then gets the verdict its children give, with its one comparison.completed event.

const VIDEOS = ['hailuo-02', 'luma-ray-2-flash'];
const slowVideos = { prompt: 'a long take #slow:600000', models: VIDEOS };

async function reservedOf(key: string, generationId: string, baseUrl?: string): Promise<number> {
  return (await call('GET', `/v1/generations/${generationId}`, { key, ...(baseUrl && { baseUrl }) })).body.reserved_credits;
}

describe('POST /v1/comparisons/{id}/cancel', function () {
  this.timeout(90_000);

  it('cancels a comparison whose children are running: 200, every child canceled and refunded in full, verdict failed', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body: slowVideos });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const running = await waitForRunning(created.body.id, org.liveKey);
    assert.equal(running.status, 'running');
    assert.equal(running.finished_at, null);

    const canceled = await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: org.liveKey });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.equal(canceled.body.status, 'failed');
    assert.ok(canceled.body.finished_at);
    assert.deepEqual([canceled.body.charged_credits, canceled.body.refunded_credits], [0, created.body.reserved_credits]);
    for (const child of canceled.body.generations) {
      assert.deepEqual([child.status, child.charged_credits, child.refunded_credits], ['canceled', 0, await reservedOf(org.liveKey, child.id)]);
      assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'refund']);
    }
    const events = await stack().repos.events.listForSubject(created.body.id);
    assert.deepEqual(
      events.map((e) => [e.type, (e.data as { status: string }).status]),
      [['comparison.completed', 'failed']],
    );
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('cancels a comparison just admitted, before its children leave the queue, the same way', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body: slowVideos });
    const canceled = await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: org.liveKey });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.equal(canceled.body.status, 'failed');
    assert.deepEqual(
      canceled.body.generations.map((g: { status: string }) => g.status),
      ['canceled', 'canceled'],
    );
    assert.equal(canceled.body.refunded_credits, created.body.reserved_credits);
    assert.equal((await stack().repos.events.listForSubject(created.body.id)).length, 1);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('cancels a sandbox comparison with its test key: children canceled, no money moved', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 1_000 });
    const created = await call('POST', '/v1/comparisons', { key: org.testKey, body: slowVideos });
    assert.equal(created.body.reserved_credits, 0);
    await waitForRunning(created.body.id, org.testKey);
    const canceled = await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: org.testKey });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.deepEqual([canceled.body.status, canceled.body.generations.map((g: { status: string }) => g.status)], ['failed', ['canceled', 'canceled']]);
    assert.deepEqual([canceled.body.reserved_credits, canceled.body.charged_credits, canceled.body.refunded_credits], [0, 0, 0]);
    for (const child of canceled.body.generations) assert.deepEqual(await ledgerKinds(child.id), []);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1_000, reservedCredits: 0 });
  });

  it('answers 409 comparison_not_cancelable for a finished comparison, and changes nothing', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'done quickly', models: ['flux-schnell', 'imagen-4-fast'] } });
    const done = await waitForComparison(created.body.id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    const res = await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: org.liveKey });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'comparison_not_cancelable');
    assert.match(res.body.error.message, /succeeded/);
    // Output URLs are signed anew on each read (their expiry moves with the clock): compare the rest.
    const withoutUrls = (c: { generations: { outputs: { url?: string }[] }[] }) => ({
      ...c,
      generations: c.generations.map((g) => ({ ...g, outputs: g.outputs.map(({ url: _url, ...o }) => o) })),
    });
    assert.deepEqual(withoutUrls((await call('GET', `/v1/comparisons/${created.body.id}`, { key: org.liveKey })).body), withoutUrls(done));
    for (const child of done.generations) assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'capture']);

    const slow = await call('POST', '/v1/comparisons', { key: org.liveKey, body: slowVideos });
    const first = await call('POST', `/v1/comparisons/${slow.body.id}/cancel`, { key: org.liveKey });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await call('POST', `/v1/comparisons/${slow.body.id}/cancel`, { key: org.liveKey });
    assert.deepEqual([again.status, again.body.error.code], [409, 'comparison_not_cancelable']);
    assert.equal((await stack().repos.events.listForSubject(slow.body.id)).length, 1);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000 - done.charged_credits, reservedCredits: 0 });
  });

  it('keeps a child that already succeeded charged, cancels the one still running, and ends partial', async () => {
    // luma-ray-2-flash runs until cancelled on this worker; hailuo-02 finishes at the simulator's pace.
    const slowStack = await startStackWithSlowModels(['luma-ray-2-flash']);
    try {
      const baseUrl = slowStack.apiUrl;
      const org = await createOrganization({ plan: 'pro', credits: 100_000 });
      const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body: { prompt: 'one fast, one slow', models: VIDEOS }, baseUrl });
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const [fast, slow] = created.body.generations;
      const midway = await waitFor(
        async () => {
          const res = await call('GET', `/v1/comparisons/${created.body.id}`, { key: org.liveKey, baseUrl });
          return res.body.generations[0].status === 'succeeded' ? res.body : undefined;
        },
        30_000,
        'hailuo-02 to succeed',
      );
      assert.deepEqual([midway.status, midway.generations[1].status], ['running', 'running']);

      const canceled = await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: org.liveKey, baseUrl });
      assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
      assert.equal(canceled.body.status, 'partial');
      assert.ok(canceled.body.finished_at);
      const fastReserved = await reservedOf(org.liveKey, fast.id, baseUrl);
      const slowReserved = await reservedOf(org.liveKey, slow.id, baseUrl);
      const [fastChild, slowChild] = canceled.body.generations;
      assert.deepEqual([fastChild.status, fastChild.charged_credits, fastChild.refunded_credits, fastChild.outputs.length], ['succeeded', fastReserved, 0, 1]);
      assert.deepEqual([slowChild.status, slowChild.charged_credits, slowChild.refunded_credits, slowChild.outputs.length], ['canceled', 0, slowReserved, 0]);
      assert.deepEqual(await ledgerKinds(fast.id), ['reserve', 'capture']);
      assert.deepEqual(await ledgerKinds(slow.id), ['reserve', 'refund']);
      assert.deepEqual([canceled.body.charged_credits, canceled.body.refunded_credits], [fastReserved, slowReserved]);
      const events = await stack().repos.events.listForSubject(created.body.id);
      assert.deepEqual(
        events.map((e) => [e.type, (e.data as { status: string }).status]),
        [['comparison.completed', 'partial']],
      );
      assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000 - fastReserved, reservedCredits: 0 });
    } finally {
      await slowStack.stop();
    }
  });

  it('lets each child be cancelled on its own: the comparison runs on, and gets its verdict when the last one stops', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body: slowVideos });
    const [first, second] = (await waitForRunning(created.body.id, org.liveKey)).generations;
    const one = await call('POST', `/v1/generations/${first.id}/cancel`, { key: org.liveKey });
    assert.deepEqual([one.status, one.body.status, one.body.refunded_credits], [200, 'canceled', one.body.reserved_credits], JSON.stringify(one.body));
    const meanwhile = (await call('GET', `/v1/comparisons/${created.body.id}`, { key: org.liveKey })).body;
    assert.deepEqual([meanwhile.status, meanwhile.finished_at, meanwhile.generations[1].status], ['running', null, 'running']);
    assert.deepEqual(await stack().repos.events.listForSubject(created.body.id), []);

    const two = await call('POST', `/v1/generations/${second.id}/cancel`, { key: org.liveKey });
    assert.equal(two.status, 200, JSON.stringify(two.body));
    const done = await waitForComparison(created.body.id, org.liveKey);
    assert.deepEqual([done.status, done.charged_credits, done.refunded_credits], ['failed', 0, created.body.reserved_credits]);
    assert.equal((await stack().repos.events.listForSubject(created.body.id)).length, 1);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('needs the write scope of the comparison modality, and a developer role', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const created = await call('POST', '/v1/comparisons', { key: org.liveKey, body: slowVideos });
    const imagesOnly = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'images', scopes: ['images:write', 'generations:read'] } });
    const refused = await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: imagesOnly.body.secret });
    assert.deepEqual([refused.status, refused.body.error.code], [403, 'insufficient_role']);
    assert.match(refused.body.error.message, /videos:write/);
    const viewer = await createKeyWithRole(org.id, 'viewer');
    assert.equal((await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: viewer })).status, 403);
    assert.equal((await call('GET', `/v1/comparisons/${created.body.id}`, { key: org.liveKey })).body.finished_at, null);
    const canceled = await call('POST', `/v1/comparisons/${created.body.id}/cancel`, { key: org.liveKey });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });
});
