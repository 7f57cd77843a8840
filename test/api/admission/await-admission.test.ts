import assert from 'node:assert/strict';
import { ANSWER_WITH_ADMISSION_FIRST_LOOK_MS, awaitAdmission, type AdmissionWaitArgs } from '../../../api/admission/await-admission';
import { admitGeneration } from '../../../db/ledger';
import { budgetPeriodOf } from '../../../domain/budget-period';
import { newId } from '../../../lib/ids';
import type { Admission } from '../../../workflows/definitions';
import { call, createOrganization } from '../../helpers/http';
import { assertMoneyInvariants } from '../../helpers/money-invariants';
import { stack } from '../../helpers/stack';

// How the API waits for an admission: the workflow's answer, or the row the reservation commits.
// An async request's answer comes with the workflow task that reserves, so its row is not read
// early; an answer held up is still answered from the row.

/** The wait's arguments, with a row look that counts itself and answers `row` once set. */
function waitArgs(answer: Promise<Admission>, extra: Partial<AdmissionWaitArgs<string>> = {}) {
  const looks = { count: 0, row: undefined as string | undefined, stopped: false };
  const args: AdmissionWaitArgs<string> = {
    claimId: 'gen_await_admission_test',
    organizationId: 'org_unused',
    apiKeyId: 'key_unused',
    neededCredits: 1,
    budgetPeriod: budgetPeriodOf(new Date()),
    admitBy: Date.now() + 60_000,
    answer,
    syncWindowMs: 0,
    stopWaiting: () => (looks.stopped = true),
    findAdmitted: async () => {
      looks.count += 1;
      return looks.row;
    },
    ...extra,
  };
  return { args, looks };
}

const IMAGE = { model: 'flux-schnell', prompt: 'a kite' };

const answeredAfter = (ms: number) => new Promise<Admission>((resolve) => setTimeout(() => resolve({ admitted: true }), ms));

describe('waiting for an admission', () => {
  it('reads no row while an answer that comes with admission arrives, where a sync-style wait reads it several times', async () => {
    const early = waitArgs(answeredAfter(300));
    assert.deepEqual(await awaitAdmission(stack().apiDeps, early.args), { kind: 'answered', admission: { admitted: true } });
    assert.ok(early.looks.count >= 2, `without firstLookAfterMs the row is read while waiting: ${early.looks.count} reads`);

    const withAdmission = waitArgs(answeredAfter(300), { firstLookAfterMs: ANSWER_WITH_ADMISSION_FIRST_LOOK_MS });
    assert.deepEqual(await awaitAdmission(stack().apiDeps, withAdmission.args), { kind: 'answered', admission: { admitted: true } });
    assert.equal(withAdmission.looks.count, 0);
  });

  it('answers from the row when the answer is held up past the first look', async () => {
    const heldUp = waitArgs(new Promise<Admission>(() => undefined), { firstLookAfterMs: ANSWER_WITH_ADMISSION_FIRST_LOOK_MS });
    heldUp.looks.row = 'the admitted generation';
    assert.deepEqual(await awaitAdmission(stack().apiDeps, heldUp.args), { kind: 'row', found: 'the admitted generation' });
    assert.equal(heldUp.looks.count, 1);
    assert.equal(heldUp.looks.stopped, true, 'the wait for the answer is stopped');
  });

  it("infers the wallet's refusal, not the budget's, when the key's spend row is last month's", async () => {
    // A key that spent its whole budget this month; its next request is dated next month, and the
    // worker refused it for the wallet, before the API gave up waiting (its claim stands).
    const probe = await call('POST', '/v1/images', { key: (await createOrganization({ plan: 'pro' })).liveKey, body: IMAGE });
    const estimate: number = probe.body.reserved_credits;
    const org = await createOrganization({ plan: 'pro', credits: 3 * estimate });
    const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'budgeted', monthly_budget_usd: null } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (let i = 0; i < 3; i++) assert.equal((await call('POST', '/v1/images', { key: created.body.secret, body: IMAGE })).status, 200);
    const spent = (await stack().repos.apiKeys.budgetOf(created.body.id))!.spentCredits;
    // The budget is what it spent, to the cent below: nothing more fits this month.
    const budgetCredits = Math.floor(spent / 10) * 10;
    assert.equal((await call('PATCH', `/v1/api-keys/${created.body.id}`, { key: org.liveKey, body: { monthly_budget_usd: budgetCredits / 1000 } })).status, 200);
    const available: number = (await call('GET', '/v1/balance', { key: org.liveKey })).body.available_credits;
    const needed = available + 1;
    assert.ok(spent + needed > budgetCredits && needed <= budgetCredits, "over this month's budget, within next month's");

    const now = new Date();
    const nextMonth = budgetPeriodOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
    const admitBy = Date.now() + 1_500;
    const generation = {
      id: newId('gen'),
      organization_id: org.id,
      api_key_id: created.body.id,
      environment: 'live' as const,
      modality: 'image' as const,
      model: IMAGE.model,
      prompt: IMAGE.prompt,
      params: {},
      reserved_credits: needed,
      admit_by: admitBy,
      budget_period: nextMonth,
    };
    assert.equal(await admitGeneration(stack().knex, generation), false, 'the worker refused it');
    const { args } = waitArgs(new Promise<Admission>(() => undefined), {
      claimId: generation.id,
      organizationId: org.id,
      apiKeyId: created.body.id,
      neededCredits: needed,
      budgetPeriod: nextMonth,
      admitBy,
    });
    assert.deepEqual(await awaitAdmission(stack().apiDeps, args), {
      kind: 'answered',
      admission: { admitted: false, code: 'insufficient_credits', availableCredits: available },
    });
    await assertMoneyInvariants(org.id);
  });
});
