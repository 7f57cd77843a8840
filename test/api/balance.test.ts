import assert from 'node:assert/strict';
import * as ledger from '../../db/ledger';
import { newId } from '../../lib/ids';
import { call, createOrganization } from '../helpers/http';
import { createKeyWithRole } from '../helpers/keys';
import { stack } from '../helpers/stack';

describe('GET /v1/balance', () => {
  it('answers a live key with the wallet, the plan and its multiplier', async () => {
    const org = await createOrganization({ plan: 'pro', credits: 1000 });
    assert.ok(await ledger.reserveCredits(stack().knex, { organizationId: org.id, generationId: newId('gen'), amount: 100 }));
    const res = await call('GET', '/v1/balance', { key: org.liveKey });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      object: 'balance',
      organization_id: org.id,
      plan: 'pro',
      multiplier: 1.6,
      available_credits: 900,
      reserved_credits: 100,
      livemode: true,
    });
  });

  it('shows a test key the live wallet as it stands, with nothing reserved', async () => {
    const org = await createOrganization({ plan: 'team', credits: 1000 });
    assert.ok(await ledger.reserveCredits(stack().knex, { organizationId: org.id, generationId: newId('gen'), amount: 250 }));
    const res = await call('GET', '/v1/balance', { key: org.testKey });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      object: 'balance',
      organization_id: org.id,
      plan: 'team',
      multiplier: 1.3,
      available_credits: 750,
      reserved_credits: 0,
      livemode: false,
    });
  });

  it('names each plan with its multiplier', async () => {
    for (const [plan, multiplier] of [['free', 1], ['pro', 1.6], ['studio', 1.6], ['team', 1.3]] as const) {
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
