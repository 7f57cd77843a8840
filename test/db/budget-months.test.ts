import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAdmissionCoalescer } from '../../db/admission-coalescer';
import * as ledger from '../../db/ledger';
import type { NewGeneration } from '../../db/repos/generations';
import { budgetPeriodOf } from '../../domain/budget-period';
import { newId } from '../../lib/ids';
import { call, createOrganization } from '../helpers/http';
import { assertWalletMatchesLedger } from '../helpers/ledger';
import { stack } from '../helpers/stack';

// Key budgets by month in the admission statements (db/migrations/0017-budget-months.ts): a
// coalesced batch may hold requests of two months for one key (either side of UTC midnight), and a
// request may be dated to a month older than its key's row. Driven through db/ledger.ts directly,
// like test/db/ledger.test.ts, so these assert the wallet's own invariant.

const knex = () => stack().knex;

/** `YYYY-MM-01` of the month `offset` months from now. */
function monthFromNow(offset: number): string {
  const now = new Date();
  return budgetPeriodOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)));
}

/** An organization with `credits`, two live keys (one with `budgetCredits`, one without) and a maker of their generations. */
async function budgetOrg(credits: number, budgetCredits: number) {
  const org = await createOrganization({ credits });
  const created = await call('POST', '/v1/api-keys', { key: org.liveKey, body: { name: 'budgeted', monthly_budget_usd: budgetCredits / 1000 } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const owner = await knex()('api_keys').where({ organization_id: org.id, environment: 'live' }).whereNot({ id: created.body.id }).first('id');
  const keys = [created.body.id as string, owner.id as string];
  const gen = (amount: number, period: string, key = 0): NewGeneration => ({
    id: newId('gen'),
    organization_id: org.id,
    api_key_id: keys[key]!,
    environment: 'live',
    modality: 'image',
    model: 'flux-schnell',
    prompt: 'a lighthouse',
    params: {},
    reserved_credits: amount,
    budget_period: period,
  });
  return { organizationId: org.id, keys, gen };
}

type Outcome = boolean | 'budget';
const outcome = (admission: Promise<boolean>): Promise<Outcome> =>
  admission.catch((err: unknown) => {
    if (ledger.isBudgetExceeded(err)) return 'budget' as const;
    throw err;
  });

/** Each key's spend row, by the key's index, and the threshold events of the organization's keys. */
async function budgetState(org: Awaited<ReturnType<typeof budgetOrg>>) {
  const rows = await knex()('api_key_spend').whereIn('api_key_id', org.keys).select('api_key_id', knex().raw(`to_char(period, 'YYYY-MM-DD') AS period`), 'spent_credits');
  const spend = org.keys.map((id) => rows.find((r: { api_key_id: string }) => r.api_key_id === id)).map((r) => `${r.period}:${r.spent_credits}`);
  const events = await knex()('events').where({ type: 'usage.budget_threshold' }).whereRaw(`data->>'api_key_id' = ANY (?)`, [org.keys]).select('data');
  const thresholds = events
    .map(
      ({ data }: { data: { api_key_id: string; period: string; threshold: number; reason: string } }) =>
        `${org.keys.indexOf(data.api_key_id)}:${data.period}:${data.threshold}:${data.reason}`,
    )
    .sort();
  return { spend, thresholds };
}

async function periodsOf(ids: string[]): Promise<(string | null)[]> {
  const rows = await knex()('generations').whereIn('id', ids).select('id', knex().raw(`to_char(budget_period, 'YYYY-MM-DD') AS period`));
  return ids.map((id) => rows.find((r: { id: string }) => r.id === id)?.period ?? null);
}

describe('key budgets by month', function () {
  this.timeout(120_000);

  it('decides a coalesced batch spanning months exactly as the same calls one after another would', async () => {
    const request = fc.record({ amount: fc.integer({ min: 0, max: 60 }), month: fc.constantFrom(-1, 0, 1), key: fc.constantFrom(0, 0, 0, 1) });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 30 }),
        fc.array(request, { minLength: 2, maxLength: 20 }),
        async (credits, budgetTens, requests) => {
          const [batched, sequential] = await Promise.all([budgetOrg(credits, budgetTens * 10), budgetOrg(credits, budgetTens * 10)]);
          const gensOf = (org: typeof batched) => requests.map((r) => org.gen(r.amount, monthFromNow(r.month), r.key));
          // Submitted together: the first goes alone, the rest queue behind it and go as one batch.
          const coalescer = createAdmissionCoalescer(knex());
          const batchGens = gensOf(batched);
          const coalesced = await Promise.all(batchGens.map((g) => outcome(coalescer.admit(g))));
          const sequentialGens = gensOf(sequential);
          const oneByOne: Outcome[] = [];
          for (const g of sequentialGens) oneByOne.push(await outcome(ledger.admitGeneration(knex(), g)));

          assert.deepEqual(coalesced, oneByOne);
          assert.deepEqual(await budgetState(batched), await budgetState(sequential));
          assert.deepEqual(await periodsOf(batchGens.map((g) => g.id)), await periodsOf(sequentialGens.map((g) => g.id)));
          assert.deepEqual(await assertWalletMatchesLedger(batched.organizationId), await assertWalletMatchesLedger(sequential.organizationId));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("counts a batch's two months for one key each in its own month, the later one starting from zero", async () => {
    const org = await budgetOrg(1000, 100);
    const [thisMonth, nextMonth] = [monthFromNow(0), monthFromNow(1)];
    assert.deepEqual(await ledger.admitGenerationsBatch(knex(), org.organizationId, [org.gen(60, thisMonth), org.gen(30, nextMonth), org.gen(70, nextMonth)]), [true, true, true]);
    const { spend, thresholds } = await budgetState(org);
    assert.equal(spend[0], `${nextMonth}:100`);
    assert.deepEqual(thresholds, [
      `0:${thisMonth.slice(0, 7)}:50:crossed`,
      `0:${nextMonth.slice(0, 7)}:100:reached`,
      `0:${nextMonth.slice(0, 7)}:50:crossed`,
      `0:${nextMonth.slice(0, 7)}:80:crossed`,
    ]);
    await assertWalletMatchesLedger(org.organizationId);
  });

  it("counts a reservation dated to a month older than its key's row in the row's month, and gives its refund back there", async () => {
    const org = await budgetOrg(1000, 100);
    const [thisMonth, nextMonth] = [monthFromNow(0), monthFromNow(1)];
    assert.equal(await ledger.admitGeneration(knex(), org.gen(50, nextMonth)), true);
    const late = org.gen(40, thisMonth);
    assert.equal(await ledger.admitGeneration(knex(), late), true);
    assert.deepEqual((await budgetState(org)).spend[0], `${nextMonth}:90`);
    assert.deepEqual(await periodsOf([late.id]), [nextMonth], 'it is dated to the month it counted in');
    await assert.rejects(ledger.admitGeneration(knex(), org.gen(20, thisMonth)), ledger.BudgetExceededError, 'the cap holds for it too');

    assert.equal(await ledger.refundCredits(knex(), { organizationId: org.organizationId, generationId: late.id, amount: 40 }), true);
    assert.deepEqual((await budgetState(org)).spend[0], `${nextMonth}:50`);
    await assertWalletMatchesLedger(org.organizationId);
  });

  it('refuses over budget in the admission statement, reserving nothing and writing the 100 % event once, with reason request_refused', async () => {
    const org = await budgetOrg(1000, 100);
    const month = monthFromNow(0);
    assert.equal(await ledger.admitGeneration(knex(), org.gen(70, month)), true);
    const before = await assertWalletMatchesLedger(org.organizationId);
    const refused = org.gen(40, month);
    await assert.rejects(ledger.admitGeneration(knex(), refused), ledger.BudgetExceededError);
    await assert.rejects(ledger.admitGeneration(knex(), org.gen(35, month)), ledger.BudgetExceededError);
    assert.deepEqual(await assertWalletMatchesLedger(org.organizationId), before);
    assert.equal(await knex()('generations').where({ id: refused.id }).first(), undefined);
    const events = await knex()('events')
      .where({ type: 'usage.budget_threshold', subject_id: `${org.keys[0]}:${month.slice(0, 7)}:100` })
      .select('data');
    assert.deepEqual(
      events.map((e: { data: unknown }) => e.data),
      [{ threshold: 100, reason: 'request_refused', api_key_id: org.keys[0], budget_usd: 0.1, spent_usd: 0.07, period: month.slice(0, 7) }],
    );
    assert.equal(await ledger.admitGeneration(knex(), org.gen(30, month)), true, 'what still fits is admitted');
    assert.deepEqual((await budgetState(org)).spend[0], `${month}:100`);
    assert.equal(
      (await knex()('events').where({ type: 'usage.budget_threshold', subject_id: `${org.keys[0]}:${month.slice(0, 7)}:100` })).length,
      1,
      'reaching it later emits no second 100 % event',
    );
    await assertWalletMatchesLedger(org.organizationId);
  });
});
