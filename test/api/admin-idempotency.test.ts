import assert from 'node:assert/strict';
import { canonicalJson, sha256Hex } from '../../lib/canonical-json';
import { newId } from '../../lib/ids';
import { call, createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// The operator's credit adjustment takes an Idempotency-Key (decisions §9): an operator's retry
// after a timeout or a dropped connection moves the money once.

const admin = () => stack().adminToken;
const withKey = (key: string) => ({ 'Idempotency-Key': key });
const adjust = (orgId: string, body: unknown, headers: Record<string, string> = {}) => call('POST', `/admin/v1/organizations/${orgId}/credits`, { key: admin(), body, headers });

/** The ledger rows an adjustment with this reason wrote (the organization's initial credits aside). */
const rowsFor = (orgId: string, reason: string) => stack().knex('ledger_entries').where({ organization_id: orgId, reason }).pluck('available_delta');

describe('idempotent operator credit adjustments', () => {
  it('replays the first answer for the same key and body, moving the money once', async () => {
    const org = await createOrganization({ credits: 100 });
    const key = newId('req');
    const body = { amount: 250, reason: `invoice ${key}` };
    const first = await adjust(org.id, body, withKey(key));
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(first.body.available_credits, 350);
    const again = await adjust(org.id, { reason: body.reason, amount: body.amount }, withKey(key));
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(await rowsFor(org.id, body.reason), [250]);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 350, reservedCredits: 0 });
  });

  it('answers 422 idempotency_key_reused for the same key with another body, and moves nothing', async () => {
    const org = await createOrganization({ credits: 100 });
    const key = newId('req');
    assert.equal((await adjust(org.id, { amount: 10, reason: `first ${key}` }, withKey(key))).status, 200);
    const other = await adjust(org.id, { amount: 20, reason: `second ${key}` }, withKey(key));
    assert.equal(other.status, 422);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    assert.deepEqual(await rowsFor(org.id, `second ${key}`), []);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 110, reservedCredits: 0 });
  });

  it('makes exactly one ledger row for 10 concurrent identical adjustments', async () => {
    const org = await createOrganization({ credits: 100 });
    const key = newId('req');
    const body = { amount: 40, reason: `concurrent ${key}` };
    const results = await Promise.all(Array.from({ length: 10 }, () => adjust(org.id, body, withKey(key))));
    const statuses = results.map((r) => r.status);
    assert.ok(
      statuses.every((s) => s === 200 || s === 409),
      `statuses ${statuses.join(',')}`,
    );
    for (const refused of results.filter((r) => r.status === 409)) assert.equal(refused.body.error.code, 'idempotency_in_progress');
    const fresh = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    assert.equal(fresh.length, 1);
    assert.deepEqual(await rowsFor(org.id, body.reason), [40]);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 140, reservedCredits: 0 });
  });

  it('answers 409 idempotency_in_progress while the same adjustment is still being made, and moves nothing', async () => {
    const org = await createOrganization({ credits: 100 });
    const key = newId('req');
    const body = { amount: 5, reason: `held ${key}` };
    // The first attempt, still running in another API process.
    const held = await stack().repos.idempotencyKeys.claim({
      caller: 'operator',
      organizationId: org.id,
      environment: 'live',
      key,
      endpoint: 'POST /admin/v1/organizations/:id/credits',
      requestHash: sha256Hex(canonicalJson(body)),
      newResourceId: null,
      now: new Date(),
      expiredBefore: new Date(Date.now() - 24 * 3600_000),
      lockedUntil: new Date(Date.now() + 60_000),
    });
    assert.equal(held.kind, 'claimed');
    const second = await adjust(org.id, body, withKey(key));
    assert.equal(second.status, 409);
    assert.equal(second.body.error.code, 'idempotency_in_progress');
    assert.deepEqual(await rowsFor(org.id, body.reason), []);
    await assertLedgerBalanced(org.id);
  });

  it("keeps the operator's keys apart from the organization's own and from other organizations'", async () => {
    const org = await createOrganization({ credits: 100 });
    const other = await createOrganization({ credits: 100 });
    const key = newId('req');
    const body = { amount: 7, reason: `apart ${key}` };
    assert.equal((await adjust(org.id, body, withKey(key))).status, 200);
    const elsewhere = await adjust(other.id, body, withKey(key));
    assert.equal(elsewhere.status, 200);
    assert.equal(elsewhere.headers.get('idempotent-replayed'), null);
    const own = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'apart' }, headers: withKey(key) });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('idempotent-replayed'), null);
    assert.equal((await adjust(org.id, body, withKey(key))).headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await rowsFor(org.id, body.reason), [7]);
    assert.deepEqual(await rowsFor(other.id, body.reason), [7]);
    await assertLedgerBalanced(org.id);
    await assertLedgerBalanced(other.id);
  });

  it('remembers an adjustment refused for insufficient credits, and replays the refusal', async () => {
    const org = await createOrganization({ credits: 100 });
    const key = newId('req');
    const body = { amount: -150, reason: `too much ${key}` };
    const refused = await adjust(org.id, body, withKey(key));
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error.code, 'insufficient_credits');
    assert.equal((await adjust(org.id, { amount: 100, reason: `top-up ${key}` })).status, 200);
    const replay = await adjust(org.id, body, withKey(key));
    assert.equal(replay.status, 402);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await rowsFor(org.id, body.reason), []);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 200, reservedCredits: 0 });
  });

  it('does not remember an adjustment that failed validation, so the key works with a corrected body', async () => {
    const org = await createOrganization({ credits: 100 });
    const key = newId('req');
    const bad = await adjust(org.id, { amount: 0, reason: 'zero' }, withKey(key));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'amount');
    const good = await adjust(org.id, { amount: 3, reason: `corrected ${key}` }, withKey(key));
    assert.equal(good.status, 200);
    assert.equal(good.headers.get('idempotent-replayed'), null);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 103, reservedCredits: 0 });
  });

  it('answers 400 for a malformed key, 404 for an unknown organization and 401 without the admin token, moving nothing', async () => {
    const org = await createOrganization({ credits: 100 });
    const body = { amount: 9, reason: `refused ${newId('req')}` };
    const malformed = await adjust(org.id, body, withKey('tab\there'));
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.code, 'validation_failed');
    assert.equal(malformed.body.error.param, 'Idempotency-Key');
    const unknown = await adjust('org_nope', body, withKey(newId('req')));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'resource_not_found');
    const key = newId('req');
    const anonymous = await call('POST', `/admin/v1/organizations/${org.id}/credits`, { body, headers: withKey(key) });
    assert.equal(anonymous.status, 401);
    assert.equal(await stack().knex('idempotency_keys').where({ key }).first(), undefined);
    assert.deepEqual(await rowsFor(org.id, body.reason), []);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100, reservedCredits: 0 });
  });
});
