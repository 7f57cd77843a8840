import assert from 'node:assert/strict';
import { call, createOrganization, waitFor, type TestOrganization } from '../helpers/http';
import { assertWalletMatchesLedger } from '../helpers/ledger';
import { checkMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// The checker behind assertLedgerBalanced and the chaos run: quiet about everything the API
// produces, loud about each kind of broken money. The state is built through the API; the damage
// is done with SQL (or by terminating a workflow), each in its own organization.

const check = (organizationId: string) => checkMoneyInvariants(stack().knex, stack().temporal, { organizationId });
const image = (org: TestOrganization, prompt: string, key = org.liveKey) => call('POST', '/v1/images', { key, body: { model: 'flux-schnell', prompt } });
const slowVideo = (org: TestOrganization, ms: number) =>
  call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: `a long take #slow:${ms}`, duration_s: 6 } });

/** Asserts that exactly one violation names `id` and matches `pattern`. */
function assertReported(violations: string[], id: string, pattern: RegExp): void {
  const matching = violations.filter((v) => v.includes(id) && pattern.test(v));
  assert.equal(matching.length, 1, `expected one violation about ${id} matching ${pattern}, got:\n${violations.join('\n')}`);
}

describe('money invariants checker', function () {
  this.timeout(60_000);

  it('finds nothing wrong with what the API does: charges, releases, refunds, cancels, sandbox, cache hits and jobs in flight', async () => {
    const org = await createOrganization();
    assert.equal((await image(org, 'charged')).body.status, 'succeeded');
    assert.equal((await image(org, 'refunded #fail')).body.status, 'failed');
    const seeded = { model: 'flux-dev', prompt: 'a cached bicycle', seed: 7 };
    await call('POST', '/v1/images', { key: org.liveKey, body: seeded });
    assert.equal((await call('POST', '/v1/images', { key: org.liveKey, body: seeded })).body.cache_hit, true);
    const chat = await call('POST', '/v1/chat', { key: org.liveKey, body: { model: 'gpt-5-mini', messages: [{ content: 'short #tokens:5' }], max_tokens: 2000 } });
    assert.ok(chat.body.refunded_credits > 0, 'a chat that used less than it reserved releases the rest');
    assert.equal((await image(org, 'sandbox', org.testKey)).body.status, 'succeeded');
    const canceled = await slowVideo(org, 600_000);
    assert.equal((await call('POST', `/v1/generations/${canceled.body.id}/cancel`, { key: org.liveKey })).body.status, 'canceled');
    const inFlight = await slowVideo(org, 600_000);
    assert.equal(inFlight.status, 202);

    assert.deepEqual(await check(org.id), []);
    await call('POST', `/v1/generations/${inFlight.body.id}/cancel`, { key: org.liveKey });
    assert.deepEqual(await check(org.id), []);
  });

  it('reports a wallet that differs from the sum of its ledger', async () => {
    const org = await createOrganization({ credits: 1000 });
    await image(org, 'charged');
    await stack().knex('wallets').where({ organization_id: org.id }).increment('available_credits', 1);
    assertReported(await check(org.id), org.id, /^wallet of .* but its ledger sums to/);
  });

  it('reports a terminal generation whose charge and refund do not add up to its reservation', async () => {
    const org = await createOrganization();
    const done = await image(org, 'charged');
    await stack().knex('generations').where({ id: done.body.id }).increment('refunded_credits', 5);
    assertReported(await check(org.id), done.body.id, /reserved is not charged \+ refunded$/);
  });

  it('reports a terminal generation that still holds its reservation, which the wallet alone cannot see', async () => {
    const org = await createOrganization();
    const created = await slowVideo(org, 600_000);
    const handle = stack().temporal.workflow.getHandle(created.body.id);
    // As if the failure's status committed without its refund: the credits stay reserved for good.
    // (The statement that fails a generation also ends its provider call, as here.)
    await stack()
      .knex('generations')
      .where({ id: created.body.id })
      .update({ status: 'failed', charged_credits: 0, refunded_credits: stack().knex.raw('reserved_credits'), open_attempt: null });
    try {
      const violations = await check(org.id);
      assertReported(violations, created.body.id, new RegExp(`it still holds ${created.body.reserved_credits} reserved credits$`));
      assert.equal(violations.length, 1, violations.join('\n'));
      await assertWalletMatchesLedger(org.id);
    } finally {
      await handle.terminate('test: its generation was failed by hand');
    }
  });

  it('reports a terminal generation whose provider call is missing from its attempts', async () => {
    const org = await createOrganization();
    const done = await image(org, 'charged');
    assert.equal(done.body.attempts.length, 1);
    await stack()
      .knex('generations')
      .where({ id: done.body.id })
      .update({ open_attempt: { provider: 'simulator', model: 'flux-schnell', started_at: new Date().toISOString() } });
    assertReported(await check(org.id), done.body.id, /its call to simulator \(flux-schnell\) is missing from its attempts$/);
  });

  it('reports a generation left running by a terminated workflow as stranded, with its credits held', async () => {
    const org = await createOrganization();
    const created = await slowVideo(org, 20_000);
    assert.equal(created.status, 202);
    await stack().temporal.workflow.getHandle(created.body.id).terminate('test: strand its generation');
    // Right away: nothing else (a reconciler) may have touched it yet.
    const violations = await check(org.id);
    assertReported(violations, created.body.id, /is stranded: its workflow is TERMINATED/);
    assert.equal(violations.length, 1, violations.join('\n'));
    const row = await stack().knex('generations').where({ id: created.body.id }).first();
    assert.ok(['queued', 'running'].includes(row.status) && row.reserved_credits > 0, 'the generation is open and holds its credits');
    await assertWalletMatchesLedger(org.id);
  });

  it('reports a generation row that no workflow runs, and its missing reservation', async () => {
    const org = await createOrganization();
    const created = await slowVideo(org, 600_000);
    const copy = `${created.body.id}_copy`;
    const original = await stack().knex('generations').where({ id: created.body.id }).first();
    await stack()
      .knex('generations')
      .insert({ ...original, id: copy });
    const violations = await check(org.id);
    assertReported(violations, copy, /is stranded: its workflow is missing/);
    assertReported(violations, copy, /ledger rows \[\], expected \[reserve -\d+\/\+\d+\]$/);
    assert.equal(violations.length, 2, violations.join('\n'));
    await call('POST', `/v1/generations/${created.body.id}/cancel`, { key: org.liveKey });
  });

  it('reports ledger rows on a sandbox generation and reservations that belong to no generation', async () => {
    const org = await createOrganization();
    const sandbox = await image(org, 'sandbox', org.testKey);
    // Zero deltas keep the wallet equal to its ledger: only the generation checks can see these.
    const row = { organization_id: org.id, kind: 'reserve', available_delta: 0, reserved_delta: 0 };
    await stack()
      .knex('ledger_entries')
      .insert([
        { ...row, generation_id: sandbox.body.id },
        { ...row, generation_id: 'gen_nobody' },
      ]);
    const violations = await check(org.id);
    assertReported(violations, sandbox.body.id, /\(test, succeeded, .*ledger rows \[reserve 0\/0\], expected \[\]$/);
    assertReported(violations, 'gen_nobody', /belong to no generation/);
    assert.equal(violations.length, 2, violations.join('\n'));
  });

  it('does not call a generation stranded when it finishes while the check runs', async () => {
    const org = await createOrganization();
    const created = await slowVideo(org, 1_000);
    // Checks race the job to its end; every one of them must see either an open workflow or a
    // terminal generation, never a closed workflow with an open generation.
    const checks: string[][] = [];
    await waitFor(async () => {
      checks.push(await check(org.id));
      return (await call('GET', `/v1/generations/${created.body.id}`, { key: org.liveKey })).body.status === 'succeeded';
    });
    assert.ok(checks.length > 1, 'the checks overlapped the job');
    assert.deepEqual(checks.flat(), []);
  });
});
