import assert from 'node:assert/strict';
import { call, createOrganization, waitFor, waitForGeneration } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';

const slowVideo = (ms: number) => ({ model: 'hailuo-02', prompt: `a long take #slow:${ms}`, duration_s: 6 });

describe('POST /v1/generations/{id}/cancel', function () {
  this.timeout(60_000);

  it('cancels a running async generation: 200 canceled, the whole reservation refunded, nothing charged', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(600_000) });
    assert.equal(created.status, 202);
    await waitFor(async () => (await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey })).body.status === 'running');
    const canceled = await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey });
    assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
    assert.equal(canceled.body.status, 'canceled');
    assert.equal(canceled.body.charged_credits, 0);
    assert.equal(canceled.body.refunded_credits, created.body.reserved_credits);
    // The provider call the cancel stopped shows in the provenance as canceled.
    assert.deepEqual(
      canceled.body.attempts.map((a: { outcome: string; error_code?: string }) => [a.outcome, a.error_code]),
      [['canceled', undefined]],
    );
    assert.deepEqual(await ledgerKinds(created.body.id), ['reserve', 'refund']);
    assert.equal((await assertLedgerBalanced(org.id)).availableCredits, 100_000);
    // The workflow ended as cancelled, and no event was emitted for a cancel.
    // (The refund commits just before the workflow closes, so wait for the close.)
    const handle = stack().temporal.workflow.getHandle(created.body.id);
    await handle.result().catch(() => undefined);
    assert.equal((await handle.describe()).status.name, 'CANCELLED');
    assert.deepEqual(await stack().repos.events.listForSubject(created.body.id), []);
  });

  it('cancels a queued generation (just admitted) the same way', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(600_000) });
    const canceled = await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey });
    assert.equal(canceled.status, 200);
    assert.equal(canceled.body.status, 'canceled');
    await assertLedgerBalanced(org.id);
  });

  it('answers 409 generation_not_cancelable for a finished generation, and changes nothing', async () => {
    const org = await createOrganization();
    const done = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'done' } });
    const res = await call('POST', `/v1/generations/${done.body.id}/cancel`, { key: org.liveKey });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'generation_not_cancelable');
    assert.deepEqual(await ledgerKinds(done.body.id), ['reserve', 'capture']);

    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(600_000) });
    assert.equal((await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey })).status, 200);
    const again = await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey });
    assert.equal(again.status, 409);
    assert.deepEqual(await ledgerKinds(created.body.id), ['reserve', 'refund']);
    await assertLedgerBalanced(org.id);
  });

  it('ends in exactly one terminal state and one ledger outcome when a cancel races completion, whichever wins', async function () {
    this.timeout(120_000);
    const org = await createOrganization();
    const outcomes: string[] = [];
    // The job is done 500 ms after its submission and captured some 700 ms after its admission on
    // the development machine (its first poll, or the simulator's callback, finds it done). The
    // cancels are sent at staggered moments: densely around that point, where they race the
    // capture, and some well before and well after it, so that both outcomes occur however loaded
    // the machine is.
    const delays = [0, 300, 500, 600, 650, 700, 750, 800, 850, 900, 1000, 1500, 3000];
    for (const delay of delays) {
      const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(500) });
      assert.equal(created.status, 202);
      // A deliberate delay: it chooses when the cancel is sent, it does not wait for anything.
      await new Promise((resolve) => setTimeout(resolve, delay));
      const res = await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey });
      const final = await waitForGeneration(created.body.id, org.liveKey);
      const kinds = await ledgerKinds(created.body.id);
      if (final.status === 'canceled') {
        assert.equal(res.status, 200);
        assert.deepEqual(kinds, ['reserve', 'refund']);
      } else {
        assert.equal(final.status, 'succeeded');
        assert.equal(res.status, 409, JSON.stringify(res.body));
        assert.deepEqual(kinds, ['reserve', 'capture']);
      }
      outcomes.push(final.status);
    }
    await assertLedgerBalanced(org.id);
    const byDelay = delays.map((delay, i) => `${delay} ms: ${outcomes[i]}`).join(', ');
    assert.ok(outcomes.includes('canceled'), `some cancel must win the race (${byDelay})`);
    assert.ok(outcomes.includes('succeeded'), `some cancel must lose the race (${byDelay})`);
  });

  it('needs the write scope of the generation modality, and a developer role', async () => {
    const org = await createOrganization();
    const created = await call('POST', '/v1/videos', { key: org.liveKey, body: slowVideo(600_000) });
    const imagesOnly = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'images', scopes: ['images:write', 'generations:read'] } });
    const refused = await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: imagesOnly.body.secret });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'insufficient_role');
    const viewer = await createKeyWithRole(org.id, 'viewer');
    assert.equal((await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: viewer })).status, 403);
    assert.equal((await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey })).status, 200);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });
});
