import assert from 'node:assert/strict';
import { call, createOrganization, type TestOrganization } from '../helpers/http';

// monthly_budget_usd is any amount in whole cents (issue 9, item 12): checked exactly, not with a
// floating-point multipleOf that refuses 19.99.

const ACCEPTED = [19.99, 4.35, 0.07, 0, 1e6, 0.1, 123456.78];
const REFUSED: [number, RegExp][] = [
  [0.001, /at most 2 decimal places/],
  [-1, />= 0/],
  [1.005, /at most 2 decimal places/],
];

describe('API key monthly_budget_usd', () => {
  let org: TestOrganization;
  before(async () => {
    org = await createOrganization();
  });

  for (const amount of ACCEPTED) {
    it(`accepts ${amount} USD on create and on update, and stores it exactly`, async () => {
      const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: `budget ${amount}`, monthly_budget_usd: amount } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.monthly_budget_usd, amount);
      const updated = await call('PATCH', `/v1/api-keys/${created.body.id}`, { key: org.liveKey, body: { monthly_budget_usd: amount } });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      const listed = await call('GET', '/v1/api-keys?limit=100', { key: org.liveKey });
      assert.equal(listed.body.data.find((k: { id: string }) => k.id === created.body.id).monthly_budget_usd, amount);
    });
  }

  for (const [amount, says] of REFUSED) {
    it(`refuses ${amount} USD with 400 validation_failed naming monthly_budget_usd, and creates or changes nothing`, async () => {
      const name = `refused ${amount}`;
      const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name, monthly_budget_usd: amount } });
      assert.equal(created.status, 400);
      assert.equal(created.body.error.code, 'validation_failed');
      assert.equal(created.body.error.param, 'monthly_budget_usd');
      assert.match(created.body.error.message, says);

      const existing = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: `${name} (kept)`, monthly_budget_usd: 5 } });
      const updated = await call('PATCH', `/v1/api-keys/${existing.body.id}`, { key: org.liveKey, body: { monthly_budget_usd: amount } });
      assert.equal(updated.status, 400);
      assert.equal(updated.body.error.param, 'monthly_budget_usd');

      const keys = (await call('GET', '/v1/api-keys?limit=100', { key: org.liveKey })).body.data as { name: string; id: string; monthly_budget_usd: number }[];
      assert.ok(!keys.some((k) => k.name === name), 'no key was created');
      assert.equal(keys.find((k) => k.id === existing.body.id)?.monthly_budget_usd, 5, 'the budget was not changed');
    });
  }
});
