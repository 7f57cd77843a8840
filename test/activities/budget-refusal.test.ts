import assert from 'node:assert/strict';
import { refusedByBudget } from '../../activities/budget-refusal';
import { budgetPeriodOf } from '../../domain/budget-period';
import { creditsToUsd } from '../../domain/pricing';
import { call, createOrganization } from '../helpers/http';
import { assertMoneyInvariants } from '../helpers/money-invariants';
import { stack } from '../helpers/stack';

// The 402 budget_exceeded message says what the key spent in the request's month: a spend row of
// an earlier month is not that month's spend.

describe('a budget refusal', () => {
  it("counts what the key spent in the request's month only, not an earlier month's spend", async () => {
    const org = await createOrganization({ plan: 'pro', credits: 10_000 });
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'budgeted', monthly_budget_usd: 5 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const spent = await call('POST', '/v1/images', { key: created.body.secret, body: { model: 'flux-schnell', prompt: 'a lighthouse' } });
    assert.equal(spent.status, 200, JSON.stringify(spent.body));
    assert.ok(spent.body.charged_credits > 0);

    const now = new Date();
    const thisMonth = budgetPeriodOf(now);
    const nextMonth = budgetPeriodOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
    assert.deepEqual(await refusedByBudget(stack().repos, created.body.id, thisMonth), {
      admitted: false,
      code: 'budget_exceeded',
      budgetUsd: 5,
      spentUsd: creditsToUsd(spent.body.charged_credits),
    });
    assert.deepEqual(await refusedByBudget(stack().repos, created.body.id, nextMonth), {
      admitted: false,
      code: 'budget_exceeded',
      budgetUsd: 5,
      spentUsd: 0,
    });
    await assertMoneyInvariants(org.id);
  });
});
