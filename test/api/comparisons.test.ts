import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { assertLedgerBalanced, ledgerKinds } from '../helpers/ledger';
import { download } from '../helpers/media';
import { stack } from '../helpers/stack';
import { waitForComparison, waitForRunning } from '../helpers/comparisons';

// A comparison end to end, and how it reads back (spec §2, §4; decisions §5): GET /v1/comparisons/{id}
// and the list, its children as ordinary generations, its one comparison.completed event, and
// tenant isolation. Refusals: comparisons-validation; money: comparisons-money and -cancel;
// every modality: comparisons-modalities.

async function created(org: TestOrganization, body: unknown, key = org.liveKey) {
  const res = await call('POST', '/v1/comparisons', { key, body });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body;
}

describe('POST /v1/comparisons', function () {
  this.timeout(90_000);

  it('runs one prompt on two image models: 202 queued, then succeeded with each child charged its own estimate', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const accepted = await call('POST', '/v1/comparisons', {
      key: org.liveKey,
      body: { prompt: 'a lighthouse at dusk', models: ['flux-schnell', 'flux-dev'], params_shared: { aspect_ratio: '16:9' } },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.match(accepted.body.id, /^cmp_/);
    assert.equal(accepted.body.object, 'comparison');
    assert.equal(accepted.body.status, 'queued');
    assert.equal(accepted.body.finished_at, null);
    assert.equal(accepted.body.generations.length, 2);
    const done = await waitForComparison(accepted.body.id, org.liveKey);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.charged_credits, done.reserved_credits);
    for (const child of done.generations) {
      assert.equal(child.status, 'succeeded');
      assert.equal(child.outputs.length, 1);
      assert.deepEqual(await ledgerKinds(child.id), ['reserve', 'capture']);
      const alone = await call('GET', `/v1/generations/${child.id}`, { key: org.liveKey });
      assert.equal(alone.body.status, 'succeeded');
    }
    const events = await stack().repos.events.listForSubject(accepted.body.id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'comparison.completed');
    await assertLedgerBalanced(org.id);
  });
});

describe('reading comparisons', function () {
  this.timeout(90_000);

  it('GET /v1/comparisons/{id} shows every child: status, credits, error_code and signed outputs, with the totals', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const body = { prompt: 'a red kite #fail:flux-schnell', models: ['imagen-4-fast', 'flux-schnell'], params_shared: { num_outputs: 2 } };
    const { id } = await created(org, body);
    await waitForComparison(id, org.liveKey);
    const res = await call('GET', `/v1/comparisons/${id}`, { key: org.liveKey });
    assert.equal(res.status, 200);
    const cmp = res.body;
    const [ok, failed] = cmp.generations;
    const [okAlone, failedAlone] = await Promise.all([ok, failed].map(async (c) => (await call('GET', `/v1/generations/${c.id}`, { key: org.liveKey })).body));
    assert.deepEqual(
      { ...cmp, created_at: undefined, finished_at: undefined, generations: undefined },
      {
        id,
        object: 'comparison',
        status: 'partial',
        modality: 'image',
        prompt: body.prompt,
        params_shared: body.params_shared,
        models: body.models,
        reserved_credits: okAlone.reserved_credits + failedAlone.reserved_credits,
        charged_credits: okAlone.charged_credits,
        refunded_credits: failedAlone.reserved_credits,
        deadline_at: null,
        created_at: undefined,
        finished_at: undefined,
        generations: undefined,
      },
    );
    assert.ok(Date.parse(cmp.finished_at) >= Date.parse(cmp.created_at));

    assert.deepEqual([ok.model, ok.status, ok.charged_credits, ok.refunded_credits, ok.error_code], ['imagen-4-fast', 'succeeded', okAlone.reserved_credits, 0, null]);
    assert.equal(ok.outputs.length, 2);
    for (const output of ok.outputs) {
      assert.match(output.id, /^out_/);
      const file = await download(output.url);
      assert.deepEqual([file.type, output.mime], ['image/png', 'image/png']);
      assert.ok(file.data.length > 0);
    }
    assert.deepEqual(
      ok.outputs,
      okAlone.outputs.map((o: { url: string }, i: number) => ({ ...o, url: ok.outputs[i].url })),
    );

    assert.deepEqual(
      [failed.model, failed.status, failed.charged_credits, failed.refunded_credits, failed.error_code],
      ['flux-schnell', 'failed', 0, failedAlone.reserved_credits, 'provider_error'],
    );
    assert.deepEqual(failed.outputs, []);
    assert.ok(failed.error_message);

    // The children are ordinary generations: fetchable and listed on their own.
    assert.deepEqual([okAlone.status, okAlone.model, failedAlone.status, failedAlone.error_code], ['succeeded', 'imagen-4-fast', 'failed', 'provider_error']);
    const listed = await call('GET', '/v1/generations?limit=100', { key: org.liveKey });
    assert.deepEqual(listed.body.data.map((g: { id: string }) => g.id).sort(), [ok.id, failed.id].sort());
    await assertLedgerBalanced(org.id);
  });

  it('writes exactly one comparison.completed event, with the totals and the children in models order', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const { id } = await created(org, { prompt: 'three kites #fail:flux-dev', models: ['imagen-4-fast', 'flux-dev', 'flux-schnell'] });
    const done = await waitForComparison(id, org.liveKey);
    const events = await stack().repos.events.listForSubject(id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'comparison.completed');
    assert.deepEqual(events[0]!.data, {
      comparison_id: id,
      status: 'partial',
      modality: 'image',
      reserved_credits: done.reserved_credits,
      charged_credits: done.charged_credits,
      refunded_credits: done.refunded_credits,
      generation_ids: done.generations.map((g: { id: string }) => g.id),
      sequence: 2,
    });
    assert.deepEqual(
      done.generations.map((g: { model: string }) => g.model),
      ['imagen-4-fast', 'flux-dev', 'flux-schnell'],
    );
    assert.ok(done.charged_credits > 0 && done.refunded_credits > 0);
    await assertLedgerBalanced(org.id);
  });

  it('GET /v1/comparisons lists newest first and pages Stripe-style with limit, starting_after and has_more', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const ids: string[] = [];
    for (const prompt of ['first', 'second', 'third']) {
      const { id } = await created(org, { prompt, models: ['flux-schnell', 'imagen-4-fast'] }, org.testKey);
      ids.push(id);
    }
    const newestFirst = [...ids].reverse();
    const all = await call('GET', '/v1/comparisons', { key: org.testKey });
    assert.equal(all.status, 200);
    assert.deepEqual([all.body.object, all.body.data.map((c: { id: string }) => c.id), all.body.has_more], ['list', newestFirst, false]);
    assert.deepEqual(
      all.body.data.map((c: { prompt: string; generations: unknown[] }) => [c.prompt, c.generations.length]),
      [
        ['third', 2],
        ['second', 2],
        ['first', 2],
      ],
    );

    const page1 = await call('GET', '/v1/comparisons?limit=2', { key: org.testKey });
    assert.deepEqual([page1.body.data.map((c: { id: string }) => c.id), page1.body.has_more], [newestFirst.slice(0, 2), true]);
    const page2 = await call('GET', `/v1/comparisons?limit=2&starting_after=${newestFirst[1]}`, { key: org.testKey });
    assert.deepEqual([page2.body.data.map((c: { id: string }) => c.id), page2.body.has_more], [newestFirst.slice(2), false]);

    // The other environment lists none of them.
    assert.deepEqual((await call('GET', '/v1/comparisons', { key: org.liveKey })).body.data, []);
    const badLimit = await call('GET', '/v1/comparisons?limit=0', { key: org.testKey });
    assert.deepEqual([badLimit.status, badLimit.body.error.code, badLimit.body.error.param], [400, 'validation_failed', 'limit']);
    const unknownCursor = await call('GET', '/v1/comparisons?starting_after=cmp_doesnotexist', { key: org.testKey });
    assert.deepEqual([unknownCursor.status, unknownCursor.body.error.code, unknownCursor.body.error.param], [404, 'resource_not_found', 'starting_after']);
    await Promise.all(ids.map((id) => waitForComparison(id, org.testKey)));
    await assertLedgerBalanced(org.id);
  });

  it('answers 404 resource_not_found to another organization and to the other environment, on GET and on cancel', async () => {
    const owner = await createOrganization({ plan: 'pro', credits: 100_000 });
    const stranger = await createOrganization({ plan: 'pro', credits: 100_000 });
    const { id } = await created(owner, { prompt: 'mine #slow:600000', models: ['hailuo-02', 'luma-ray-2-flash'] });
    const { id: sandboxId } = await created(owner, { prompt: 'mine too', models: ['flux-schnell', 'imagen-4-fast'] }, owner.testKey);
    await waitForRunning(id, owner.liveKey);
    const attempts: [string, string][] = [
      [id, stranger.liveKey],
      [id, stranger.testKey],
      [id, owner.testKey],
      [sandboxId, owner.liveKey],
      [sandboxId, stranger.testKey],
    ];
    for (const [target, key] of attempts) {
      for (const [method, path] of [
        ['GET', `/v1/comparisons/${target}`],
        ['POST', `/v1/comparisons/${target}/cancel`],
      ] as const) {
        const res = await call(method, path, { key });
        assert.deepEqual([res.status, res.body.error.code], [404, 'resource_not_found'], `${method} ${path}`);
        assert.doesNotMatch(JSON.stringify(res.body), /hailuo|flux/);
      }
    }
    // Nothing the strangers sent reached the comparison: it still runs until its owner cancels it.
    assert.equal((await call('GET', `/v1/comparisons/${id}`, { key: owner.liveKey })).body.status, 'running');
    const canceled = await call('POST', `/v1/comparisons/${id}/cancel`, { key: owner.liveKey });
    assert.deepEqual([canceled.status, canceled.body.status], [200, 'failed'], JSON.stringify(canceled.body));
    await waitForComparison(sandboxId, owner.testKey);
    assert.deepEqual(await assertLedgerBalanced(owner.id), { availableCredits: 100_000, reservedCredits: 0 });
    assert.deepEqual(await assertLedgerBalanced(stranger.id), { availableCredits: 100_000, reservedCredits: 0 });
  });
});
