import assert from 'node:assert/strict';
import type { IdempotencyRequest } from '../../db/repos/idempotency-keys';
import { newId } from '../../lib/ids';
import { createOrganization } from '../helpers/http';
import { stack } from '../helpers/stack';

// Every claim has an owner token: only the request holding the claim can complete, forget or
// release it. A request whose lock ran out and whose key a retry took over changes nothing.

const DAY_MS = 24 * 3600_000;

async function keyRequests() {
  const org = await createOrganization();
  const key = `own-${Math.random().toString(36).slice(2)}`;
  const t0 = Date.now();
  /** The same request arriving `atMs` after t0, holding the key for `lockMs`. */
  const at = (atMs: number, lockMs = 1_000, over: Partial<IdempotencyRequest> = {}): IdempotencyRequest => ({
    organizationId: org.id,
    environment: 'live',
    key,
    endpoint: 'POST /v1/images',
    requestHash: 'hash-1',
    newResourceId: newId('gen'),
    now: new Date(t0 + atMs),
    expiredBefore: new Date(t0 + atMs - DAY_MS),
    lockedUntil: new Date(t0 + atMs + lockMs),
    ...over,
  });
  const row = () => stack().knex('idempotency_keys').where({ organization_id: org.id, key }).first();
  return { org, key, at, row };
}

async function claimed(req: IdempotencyRequest) {
  const claim = await stack().repos.idempotencyKeys.claim(req);
  assert.equal(claim.kind, 'claimed');
  return claim as Extract<typeof claim, { kind: 'claimed' }>;
}

describe('idempotency key ownership', () => {
  it('lets a retry take over an expired lock with the same resource id and a new owner', async () => {
    const { at, row } = await keyRequests();
    const first = await claimed(at(0));
    const retry = await claimed(at(2_000, 60_000));
    assert.equal(first.takenOver, false);
    assert.equal(retry.takenOver, true);
    assert.equal(retry.resourceId, first.resourceId);
    assert.notEqual(retry.held.ownerToken, first.held.ownerToken);
    assert.equal((await row()).owner_token, retry.held.ownerToken);
  });

  it("does not let the request it took over complete, forget or release the retry's claim", async () => {
    const { at, row } = await keyRequests();
    const repo = stack().repos.idempotencyKeys;
    const late = await claimed(at(0));
    const retry = await claimed(at(2_000, 60_000));
    const before = await row();

    assert.equal(await repo.complete(late.held, { status: 200, body: { from: 'late' } }), false);
    assert.equal(await repo.release(late.held, new Date(Date.now() + 3_000)), false);
    assert.equal(await repo.forget(late.held), false);

    assert.deepEqual(await row(), before);
    assert.equal(before.state, 'in_progress');
    assert.equal((await repo.claim(at(3_000))).kind, 'in_progress');

    assert.equal(await repo.complete(retry.held, { status: 200, body: { from: 'retry' } }), true);
    assert.deepEqual(await repo.claim(at(4_000)), { kind: 'replay', status: 200, body: { from: 'retry' } });
  });

  it('lets the owner forget its claim, and release it for a retry to take over at once', async () => {
    const { at, row } = await keyRequests();
    const repo = stack().repos.idempotencyKeys;
    const first = await claimed(at(0, 60_000));
    assert.equal(await repo.release(first.held, at(500).now), true);
    const retry = await claimed(at(1_000, 60_000));
    assert.equal(retry.takenOver, true);
    assert.equal(await repo.forget(retry.held), true);
    assert.equal(await row(), undefined);
    assert.equal((await claimed(at(2_000))).takenOver, false);
  });

  it('does not let a completed claim be completed again, even by its owner', async () => {
    const { at } = await keyRequests();
    const repo = stack().repos.idempotencyKeys;
    const first = await claimed(at(0));
    assert.equal(await repo.complete(first.held, { status: 200, body: { n: 1 } }), true);
    assert.equal(await repo.complete(first.held, { status: 500, body: { n: 2 } }), false);
    assert.equal(await repo.forget(first.held), false);
    assert.deepEqual(await repo.claim(at(5_000)), { kind: 'replay', status: 200, body: { n: 1 } });
  });

  it("keeps the operator's keys apart from the organization's own keys with the same text", async () => {
    const { at } = await keyRequests();
    const own = await claimed(at(0, 60_000));
    const operator = await claimed(at(0, 60_000, { caller: 'operator', endpoint: 'POST /admin/v1/organizations/:id/credits', newResourceId: null }));
    assert.equal(operator.resourceId, null);
    assert.equal(await stack().repos.idempotencyKeys.complete(operator.held, { status: 200, body: {} }), true);
    assert.equal((await stack().repos.idempotencyKeys.claim(at(1_000))).kind, 'in_progress');
    assert.equal(own.held.caller, 'api_key');
  });

  it('tells a takeover apart from a first claim when the request creates no resource', async () => {
    const { at } = await keyRequests();
    const operator = (atMs: number, lockMs?: number) => at(atMs, lockMs, { caller: 'operator', newResourceId: null });
    assert.equal((await claimed(operator(0))).takenOver, false);
    const retry = await claimed(operator(2_000));
    assert.equal(retry.takenOver, true);
    assert.equal(retry.resourceId, null);
  });
});
