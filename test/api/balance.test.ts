import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { SANDBOX_AVAILABLE_CREDITS } from '../../domain/sandbox-balance';
import { assertLedgerBalanced } from '../helpers/ledger';

/** A live video job that holds its reservation until it is cancelled: credits reserved the way production reserves them. */
async function holdReservation(org: TestOrganization): Promise<{ id: string; reserved: number }> {
  const created = await call('POST', '/v1/videos', { key: org.liveKey, body: { model: 'hailuo-02', prompt: 'a long take #slow:600000', duration_s: 6 } });
  assert.equal(created.status, 202, JSON.stringify(created.body));
  assert.ok(created.body.reserved_credits > 0);
  return { id: created.body.id, reserved: created.body.reserved_credits };
}

async function cancel(org: TestOrganization, generationId: string): Promise<void> {
  assert.equal((await call('POST', `/v1/generations/${generationId}/cancel`, { key: org.liveKey })).status, 200);
}

describe('GET /v1/balance', () => {
  it('answers a live key with the wallet, the plan and its multiplier', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 100_000 });
    const held = await holdReservation(org);
    const res = await call('GET', '/v1/balance', { key: org.liveKey });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      object: 'balance',
      organization_id: org.id,
      plan: 'pro',
      multiplier: 1.6,
      available_credits: 100_000 - held.reserved,
      reserved_credits: held.reserved,
      livemode: true,
    });
    await assertLedgerBalanced(org.id);
    await cancel(org, held.id);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100_000, reservedCredits: 0 });
  });

  it('shows a test key the sandbox allowance, before and after test generations, and never the live wallet', async () => {
    const org = await createOrganization({ plan: 'team', credits: 100_000 });
    const held = await holdReservation(org);
    const sandbox = {
      object: 'balance',
      organization_id: org.id,
      plan: 'team',
      multiplier: 1.3,
      available_credits: SANDBOX_AVAILABLE_CREDITS,
      reserved_credits: 0,
      livemode: false,
    };
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.testKey })).body, sandbox);
    const live = (await call('GET', '/v1/balance', { key: org.liveKey })).body;

    const image = await call('POST', '/v1/images', { key: org.testKey, body: { model: 'flux-schnell', prompt: 'a sandbox kite' } });
    assert.equal(image.status, 200, JSON.stringify(image.body));
    const video = await call('POST', '/v1/videos', { key: org.testKey, body: { model: 'hailuo-02', prompt: 'a sandbox take #slow:600000', duration_s: 6 } });
    assert.equal(video.status, 202, JSON.stringify(video.body));
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.testKey })).body, sandbox, 'test requests, finished or running, leave the allowance');
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.liveKey })).body, live, 'test requests leave the live wallet');

    const spent = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a live kite' } });
    assert.equal(spent.status, 200, JSON.stringify(spent.body));
    assert.deepEqual((await call('GET', '/v1/balance', { key: org.testKey })).body, sandbox, 'live spend does not show in the sandbox');
    assert.equal((await call('GET', '/v1/balance', { key: org.liveKey })).body.available_credits, live.available_credits - spent.body.charged_credits);

    await cancel(org, held.id);
    assert.equal((await call('POST', `/v1/generations/${video.body.id}/cancel`, { key: org.testKey })).status, 200);
    await assertLedgerBalanced(org.id);
  });

  it('names each plan with its multiplier', async () => {
    for (const [plan, multiplier] of [
      ['free', 1],
      ['pro', 1.6],
      ['studio', 1.6],
      ['team', 1.3],
    ] as const) {
      const org = await createOrganization({ plan, credits: 0 });
      const res = await call('GET', '/v1/balance', { key: org.liveKey });
      assert.equal(res.body.plan, plan);
      assert.equal(res.body.multiplier, multiplier);
      assert.equal(res.body.available_credits, 0);
    }
  });

  it('follows a live generation: the wallet shows what it was charged', async () => {
    const org = await createOrganization({ plan: 'free', credits: 1000 });
    const gen = await call('POST', '/v1/images', { key: org.liveKey, body: { model: 'flux-schnell', prompt: 'a kite' } });
    assert.equal(gen.status, 200);
    const res = await call('GET', '/v1/balance', { key: org.liveKey });
    assert.equal(res.body.available_credits, 1000 - gen.body.charged_credits);
    assert.equal(res.body.reserved_credits, 0);
    await assertLedgerBalanced(org.id);
  });

  it('lets any role read it, but only keys whose scopes include usage:read', async () => {
    const org = await createOrganization({ credits: 10 });
    const viewer = await createKeyWithRole(org.id, 'viewer');
    assert.equal((await call('GET', '/v1/balance', { key: viewer })).status, 200);
    const scoped = await createKeyWithRole(org.id, 'developer', { scopes: ['usage:read'] });
    assert.equal((await call('GET', '/v1/balance', { key: scoped })).status, 200);
    const other = await createKeyWithRole(org.id, 'owner', { scopes: ['images:write'] });
    const denied = await call('GET', '/v1/balance', { key: other });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 'insufficient_role');
    assert.equal((await call('GET', '/v1/balance')).status, 401);
  });
});
