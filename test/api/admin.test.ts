import assert from 'node:assert/strict';
import { call, createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

const admin = () => stack().adminToken;

describe('operator API', () => {
  it('creates an organization with its owner, a live and a test owner key, and its credits', async () => {
    const res = await call('POST', '/admin/v1/organizations', { key: admin(), body: { name: 'Acme', plan: 'team', enterprise: true, credits: 2500 } });
    assert.equal(res.status, 201);
    assert.match(res.body.id, /^org_/);
    assert.equal(res.body.object, 'organization');
    assert.equal(res.body.plan, 'team');
    assert.equal(res.body.enterprise, true);
    assert.equal(res.body.paused, false);
    assert.equal(res.body.owner.role, 'owner');
    assert.deepEqual(
      res.body.api_keys.map((k: { environment: string }) => k.environment),
      ['live', 'test'],
    );
    for (const key of res.body.api_keys) {
      assert.match(key.id, /^key_/);
      assert.equal(key.role, 'owner');
      assert.equal(key.prefix, key.secret.slice(0, 12));
    }
    assert.deepEqual(res.body.balance, { object: 'balance', organization_id: res.body.id, available_credits: 2500, reserved_credits: 0 });
    await assertLedgerBalanced(res.body.id);
  });

  it('shows an organization without any key secret', async () => {
    const org = await createOrganization({ credits: 10 });
    const res = await call('GET', `/admin/v1/organizations/${org.id}`, { key: admin() });
    assert.equal(res.status, 200);
    assert.equal(res.body.balance.available_credits, 10);
    assert.ok(!JSON.stringify(res.body).includes('sk_'));
  });

  it('tops up and adjusts credits as ledger rows', async () => {
    const org = await createOrganization({ credits: 100 });
    const up = await call('POST', `/admin/v1/organizations/${org.id}/credits`, { key: admin(), body: { amount: 400, reason: 'invoice 42' } });
    assert.equal(up.status, 200);
    assert.equal(up.body.available_credits, 500);
    const down = await call('POST', `/admin/v1/organizations/${org.id}/credits`, { key: admin(), body: { amount: -150, reason: 'correction' } });
    assert.equal(down.body.available_credits, 350);
    const kinds = await stack().knex('ledger_entries').where({ organization_id: org.id }).orderBy('id').pluck('kind');
    assert.deepEqual(kinds, ['topup', 'topup', 'adjustment']);
    await assertLedgerBalanced(org.id);
  });

  it('refuses an adjustment that would take the balance below zero, and changes nothing', async () => {
    const org = await createOrganization({ credits: 100 });
    const res = await call('POST', `/admin/v1/organizations/${org.id}/credits`, { key: admin(), body: { amount: -101, reason: 'too much' } });
    assert.equal(res.status, 402);
    assert.equal(res.body.error.code, 'insufficient_credits');
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 100, reservedCredits: 0 });
  });

  const badCreates: [string, unknown, string][] = [
    ['no name', { plan: 'pro' }, 'name'],
    ['an unknown plan', { name: 'x', plan: 'gold' }, 'plan'],
    ['negative credits', { name: 'x', plan: 'pro', credits: -5 }, 'credits'],
    ['fractional credits', { name: 'x', plan: 'pro', credits: 1.5 }, 'credits'],
    ['a non-boolean enterprise', { name: 'x', plan: 'pro', enterprise: 'yes' }, 'enterprise'],
  ];
  for (const [what, body, param] of badCreates) {
    it(`answers 400 for an organization with ${what}`, async () => {
      const res = await call('POST', '/admin/v1/organizations', { key: admin(), body });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param);
    });
  }

  it('answers 400 for a zero or missing credit amount, and 404 for an unknown organization', async () => {
    const org = await createOrganization({ credits: 1 });
    const zero = await call('POST', `/admin/v1/organizations/${org.id}/credits`, { key: admin(), body: { amount: 0, reason: 'x' } });
    assert.equal(zero.status, 400);
    assert.equal(zero.body.error.param, 'amount');
    const noReason = await call('POST', `/admin/v1/organizations/${org.id}/credits`, { key: admin(), body: { amount: 5 } });
    assert.equal(noReason.body.error.param, 'reason');
    const unknown = await call('POST', '/admin/v1/organizations/org_nope/credits', { key: admin(), body: { amount: 5, reason: 'x' } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'resource_not_found');
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 1, reservedCredits: 0 });
  });
});

describe('operator API: PATCH /admin/v1/organizations/{id}', () => {
  it('changes plan, enterprise, paused and the rate limit override', async () => {
    const org = await createOrganization({ plan: 'free' });
    const res = await call('PATCH', `/admin/v1/organizations/${org.id}`, {
      key: admin(),
      body: { plan: 'studio', enterprise: true, paused: true, rate_limit_per_minute: 120 },
    });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.plan, res.body.enterprise, res.body.paused, res.body.rate_limit_per_minute], ['studio', true, true, 120]);
    const cleared = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: admin(), body: { rate_limit_per_minute: null } });
    assert.equal(cleared.body.rate_limit_per_minute, null);
  });

  it('applies a plan change to the very next request', async () => {
    const org = await createOrganization({ plan: 'pro' });
    const ultra = { model: 'flux-1.1-pro-ultra', prompt: 'x' };
    assert.equal((await call('POST', '/v1/images', { key: org.testKey, body: ultra })).status, 402);
    await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: admin(), body: { plan: 'team' } });
    assert.equal((await call('POST', '/v1/images', { key: org.testKey, body: ultra })).status, 200);
  });

  const bad: [string, unknown, string][] = [
    ['an empty body', {}, 'body'],
    ['an unknown plan', { plan: 'gold' }, 'plan'],
    ['a zero rate limit', { rate_limit_per_minute: 0 }, 'rate_limit_per_minute'],
    ['an unknown field', { name: 'renamed' }, 'name'],
  ];
  for (const [what, body, param] of bad) {
    it(`answers 400 for ${what}`, async () => {
      const org = await createOrganization();
      const res = await call('PATCH', `/admin/v1/organizations/${org.id}`, { key: admin(), body });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, param);
    });
  }

  it('answers 404 for an unknown organization', async () => {
    const res = await call('PATCH', '/admin/v1/organizations/org_missing', { key: admin(), body: { paused: true } });
    assert.equal(res.status, 404);
  });
});
