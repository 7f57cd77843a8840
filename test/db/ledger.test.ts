import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAdmissionCoalescer } from '../../db/admission-coalescer';
import * as ledger from '../../db/ledger';
import type { NewGeneration } from '../../db/repos/generations';
import { budgetPeriodOf } from '../../domain/budget-period';
import type { Environment } from '../../domain/generation-status';
import { newId } from '../../lib/ids';
import { createOrganization } from '../helpers/http';
import { assertWalletMatchesLedger, ledgerKinds } from '../helpers/ledger';
import { stack } from '../helpers/stack';

const knex = () => stack().knex;

const rowsOf = (generationId: string) => knex()('ledger_entries').where({ generation_id: generationId }).orderBy('id').select('kind', 'available_delta', 'reserved_delta');

// Reservations are made the way production makes them, by admitting a generation
// (admitGeneration, the statement behind the reserveCredits activity). No workflow ever runs these
// generations, so these tests assert the wallet's own invariant rather than the full one
// (assertWalletMatchesLedger in test/helpers/ledger.ts).

/** An organization whose wallet holds exactly `credits`, and one admitted generation reserving `amount` of it. */
async function reserved(credits: number, amount: number) {
  const { organizationId, gen } = await admissionOrg(credits);
  const generation = gen(amount);
  assert.ok(await ledger.admitGeneration(knex(), generation));
  return { organizationId, generationId: generation.id, gen };
}

/** An organization with `credits`, and a maker of its generations (keyed by its live key). */
async function admissionOrg(credits: number) {
  const org = await createOrganization({ credits });
  const key = await knex()('api_keys').where({ organization_id: org.id, environment: 'live' }).first('id');
  const gen = (amount: number, environment: Environment = 'live', extra: Partial<NewGeneration> = {}): NewGeneration => ({
    id: newId('gen'),
    organization_id: org.id,
    api_key_id: key.id,
    environment,
    modality: 'image',
    model: 'flux-schnell',
    prompt: 'a lighthouse',
    params: { width: 1024 },
    reserved_credits: amount,
    ...extra,
  });
  return { organizationId: org.id, keyId: key.id as string, gen };
}

/** `YYYY-MM-01` of the month `offset` months from now: budget months either side of UTC midnight. */
function monthFromNow(offset: number): string {
  const now = new Date();
  return budgetPeriodOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)));
}

/** The key's spend row: the month it last spent in and what it spent then. */
const spendOf = async (keyId: string) => knex()('api_key_spend').where({ api_key_id: keyId }).first(knex().raw(`to_char(period, 'YYYY-MM-DD') AS period`), 'spent_credits');

const generationIds = async (organizationId: string) =>
  (await knex()('generations').where({ organization_id: organizationId }).orderBy('id').select('id')).map((r: { id: string }) => r.id);

describe('ledger', () => {
  describe('reservations', () => {
    it('admits exactly as many concurrent generations as the wallet covers', async () => {
      // 20 reservations of 7 fit in 140; 200 race for them over the stack's pool of 20 connections.
      const { organizationId, gen } = await admissionOrg(0);
      await ledger.adjustCredits(knex(), { organizationId, amount: 20 * 7, reason: 'test' });
      const results = await Promise.all(Array.from({ length: 200 }, () => ledger.admitGeneration(knex(), gen(7))));
      assert.equal(results.filter(Boolean).length, 20);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 0, reservedCredits: 140 });
      const reserves = await knex()('ledger_entries').where({ organization_id: organizationId, kind: 'reserve' }).count<{ count: string }[]>('* as count');
      assert.equal(Number(reserves[0]?.count), 20);
      assert.equal((await generationIds(organizationId)).length, 20);
    });

    it('writes nothing, not even the generation, when the wallet does not cover it', async () => {
      const { organizationId, gen } = await admissionOrg(10);
      const generation = gen(11);
      assert.equal(await ledger.admitGeneration(knex(), generation), false);
      assert.deepEqual(await rowsOf(generation.id), []);
      assert.deepEqual(await generationIds(organizationId), []);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 10, reservedCredits: 0 });
    });

    it('decides a batch in order, as the same admissions one after another would', async () => {
      const { organizationId, gen } = await admissionOrg(20);
      const gens = [7, 15, 7, 7, 1].map((amount) => gen(amount));
      assert.deepEqual(await ledger.admitGenerationsBatch(knex(), organizationId, gens), [true, false, true, false, true]);
      assert.deepEqual(await rowsOf(gens[2]!.id), [{ kind: 'reserve', available_delta: -7, reserved_delta: 7 }]);
      assert.deepEqual(await rowsOf(gens[1]!.id), []);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 5, reservedCredits: 15 });
    });

    it('admits exactly as many as fit when batches race each other and single admissions', async () => {
      const { organizationId, gen } = await admissionOrg(20 * 7);
      const batch = () =>
        ledger.admitGenerationsBatch(
          knex(),
          organizationId,
          Array.from({ length: 10 }, () => gen(7)),
        );
      const single = () => ledger.admitGeneration(knex(), gen(7)).then((ok) => [ok]);
      const results = (await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? batch() : single())))).flat();
      assert.equal(results.filter(Boolean).length, 20);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 0, reservedCredits: 140 });
    });

    it('lets the database refuse any write that would make a balance negative', async () => {
      const org = await createOrganization({ credits: 5 });
      await assert.rejects(knex()('wallets').where({ organization_id: org.id }).update({ available_credits: -1 }), /wallets_available_non_negative/);
    });
  });

  describe('admission in batches', () => {
    it('admits a batch exactly as the same admitGeneration calls one after another would, across budget months', async () => {
      // Requests dated last month, this month (the key's row) and next month: one batch may hold two
      // months of a key (test/db/budget-months.test.ts has the budgets that refuse).
      const request = fc.record({ amount: fc.integer({ min: 0, max: 60 }), sandbox: fc.boolean(), month: fc.constantFrom(-1, 0, 1) });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 300 }), fc.array(request, { maxLength: 25 }), async (credits, requests) => {
          const [batched, sequential] = await Promise.all([admissionOrg(credits), admissionOrg(credits)]);
          const gensOf = (org: typeof batched) => requests.map((r) => org.gen(r.amount, r.sandbox ? 'test' : 'live', { budget_period: monthFromNow(r.month) }));
          const batchGens = gensOf(batched);
          const batch = await ledger.admitGenerationsBatch(knex(), batched.organizationId, batchGens);
          const singles: boolean[] = [];
          for (const gen of gensOf(sequential)) singles.push(await ledger.admitGeneration(knex(), gen));
          assert.deepEqual(batch, singles);
          assert.deepEqual(await spendOf(batched.keyId), await spendOf(sequential.keyId));
          assert.deepEqual(await assertWalletMatchesLedger(batched.organizationId), await assertWalletMatchesLedger(sequential.organizationId));
          assert.deepEqual(
            await generationIds(batched.organizationId),
            batchGens
              .filter((_, i) => batch[i])
              .map((g) => g.id)
              .sort(),
          );
        }),
        { numRuns: 25 },
      );
    });

    it('writes the same generation row as admitGeneration', async () => {
      const { organizationId, gen } = await admissionOrg(100);
      const extra = { prompt: 'a “quoted” prompt', params: { seed: 7, nested: { a: [1, 2] } }, cache_key: 'ck_1' };
      const [single, batched] = [gen(10, 'live', extra), gen(10, 'live', extra)];
      assert.ok(await ledger.admitGeneration(knex(), single));
      assert.deepEqual(await ledger.admitGenerationsBatch(knex(), organizationId, [batched]), [true]);
      const row = async (id: string) => {
        const { id: _, created_at: __, ...rest } = await knex()('generations').where({ id }).first();
        return rest;
      };
      assert.deepEqual(await row(batched.id), await row(single.id));
      assert.deepEqual(await rowsOf(batched.id), [{ kind: 'reserve', available_delta: -10, reserved_delta: 10 }]);
    });

    it('charges a retried batch, or a generation given twice, only once', async () => {
      const { organizationId, gen } = await admissionOrg(50);
      const gens = [gen(30), gen(10, 'test'), gen(100)];
      assert.deepEqual(await ledger.admitGenerationsBatch(knex(), organizationId, gens), [true, true, false]);
      assert.deepEqual(await ledger.admitGenerationsBatch(knex(), organizationId, [...gens, gens[0]!]), [true, true, false, true]);
      const twice = gen(15);
      assert.deepEqual(await ledger.admitGenerationsBatch(knex(), organizationId, [twice, gen(6), twice]), [true, false, true]);
      assert.deepEqual(await ledgerKinds(gens[0]!.id), ['reserve']);
      assert.deepEqual(await ledgerKinds(twice.id), ['reserve']);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 5, reservedCredits: 45 });
      assert.equal((await generationIds(organizationId)).length, 3);
    });

    it('admits sandbox and zero-cost generations without touching the wallet', async () => {
      const { organizationId, gen } = await admissionOrg(0);
      const before = await knex()('wallets').where({ organization_id: organizationId }).first();
      const gens = [gen(500, 'test'), gen(0), gen(1), gen(20, 'test')];
      assert.deepEqual(await ledger.admitGenerationsBatch(knex(), organizationId, gens), [true, true, false, true]);
      assert.deepEqual(await knex()('wallets').where({ organization_id: organizationId }).first(), before);
      assert.equal(await knex()('ledger_entries').where({ organization_id: organizationId }).first(), undefined);
      assert.equal((await generationIds(organizationId)).length, 3);
    });

    it('refuses a generation of another organization', async () => {
      const { organizationId } = await admissionOrg(10);
      const other = await admissionOrg(10);
      await assert.rejects(ledger.admitGenerationsBatch(knex(), organizationId, [other.gen(1)]), RangeError);
    });
  });

  describe('admission coalescer', () => {
    it('admits exactly as many of 200 concurrent callers as the wallet covers, in fewer statements', async () => {
      const { organizationId, gen } = await admissionOrg(37 * 7);
      const coalescer = createAdmissionCoalescer(knex());
      const results = await Promise.all(Array.from({ length: 200 }, () => coalescer.admit(gen(7))));
      assert.equal(results.filter(Boolean).length, 37);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 0, reservedCredits: 37 * 7 });
      assert.equal((await generationIds(organizationId)).length, 37);
      assert.equal(coalescer.stats.requests, 200);
      assert.ok(coalescer.stats.statements < 200, `${coalescer.stats.statements} statements for 200 callers`);
    });

    it('admits exactly as many as fit when two workers’ coalescers race single admissions', async () => {
      const { organizationId, gen } = await admissionOrg(30 * 7);
      const [a, b] = [createAdmissionCoalescer(knex()), createAdmissionCoalescer(knex())];
      const calls = Array.from({ length: 120 }, (_, i) => [a.admit, b.admit, (g: NewGeneration) => ledger.admitGeneration(knex(), g)][i % 3]!(gen(7)));
      assert.equal((await Promise.all(calls)).filter(Boolean).length, 30);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 0, reservedCredits: 30 * 7 });
    });

    it('sends a lone caller at once, as its own statement', async () => {
      const { organizationId, gen } = await admissionOrg(10);
      const coalescer = createAdmissionCoalescer(knex());
      assert.equal(await coalescer.admit(gen(4)), true);
      assert.equal(await coalescer.admit(gen(4)), true);
      assert.deepEqual(coalescer.stats, { statements: 2, requests: 2 });
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 2, reservedCredits: 8 });
    });

    it('rejects only the caller that fails on its own when a batch fails, and runs the next batch all the same', async () => {
      const { organizationId, gen } = await admissionOrg(100);
      const coalescer = createAdmissionCoalescer(knex());
      const first = coalescer.admit(gen(1));
      // These two queue behind the first and go together; the unknown key fails their statement,
      // so each is retried alone: the good one is admitted, the bad one rejected.
      const innocent = coalescer.admit(gen(2));
      const bad = coalescer.admit(gen(3, 'live', { api_key_id: 'key_missing' }));
      await first;
      assert.equal(await innocent, true);
      await assert.rejects(bad, /foreign key/);
      assert.equal(await coalescer.admit(gen(4)), true);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 93, reservedCredits: 7 });
    });
  });

  describe('capture', () => {
    it('spends part of a reservation and releases the rest', async () => {
      const { organizationId, generationId } = await reserved(1000, 100);
      assert.equal(await ledger.captureCredits(knex(), { organizationId, generationId, reserved: 100, charged: 37 }), true);
      assert.deepEqual(await rowsOf(generationId), [
        { kind: 'reserve', available_delta: -100, reserved_delta: 100 },
        { kind: 'capture', available_delta: 0, reserved_delta: -37 },
        { kind: 'release', available_delta: 63, reserved_delta: -63 },
      ]);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 963, reservedCredits: 0 });
    });

    it('writes no release row when the whole reservation is spent', async () => {
      const { organizationId, generationId } = await reserved(100, 40);
      await ledger.captureCredits(knex(), { organizationId, generationId, reserved: 40, charged: 40 });
      assert.deepEqual(await ledgerKinds(generationId), ['reserve', 'capture']);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 60, reservedCredits: 0 });
    });

    it('never captures more than was reserved, and then writes nothing', async () => {
      const { organizationId, generationId } = await reserved(100, 10);
      await assert.rejects(ledger.captureCredits(knex(), { organizationId, generationId, reserved: 10, charged: 11 }), RangeError);
      await assert.rejects(ledger.captureCredits(knex(), { organizationId, generationId, reserved: 10, charged: -1 }), RangeError);
      assert.deepEqual(await ledgerKinds(generationId), ['reserve']);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 90, reservedCredits: 10 });
    });

    it('refuses a capture that misstates the reservation', async () => {
      // Another generation's reservation in the same wallet must not be spendable through this one.
      const { organizationId, generationId, gen } = await reserved(100, 10);
      assert.ok(await ledger.admitGeneration(knex(), gen(50)));
      await assert.rejects(ledger.captureCredits(knex(), { organizationId, generationId, reserved: 60, charged: 60 }), RangeError);
      await assert.rejects(ledger.refundCredits(knex(), { organizationId, generationId, amount: 60 }), RangeError);
      assert.deepEqual(await ledgerKinds(generationId), ['reserve']);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 40, reservedCredits: 60 });
    });

    it('moves nothing for a generation that reserved nothing', async () => {
      const { organizationId, gen } = await reserved(100, 30);
      const stranger = gen(30, 'test');
      assert.ok(await ledger.admitGeneration(knex(), stranger), 'a sandbox generation reserves nothing');
      assert.equal(await ledger.captureCredits(knex(), { organizationId, generationId: stranger.id, reserved: 30, charged: 30 }), false);
      assert.equal(await ledger.refundCredits(knex(), { organizationId, generationId: stranger.id, amount: 30 }), false);
      assert.deepEqual(await rowsOf(stranger.id), []);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 70, reservedCredits: 30 });
    });
  });

  describe('one terminal outcome per generation', () => {
    it('moves money once however often a capture or refund is retried', async () => {
      const { organizationId, generationId: captured, gen } = await reserved(100, 40);
      const refundedGeneration = gen(20);
      assert.ok(await ledger.admitGeneration(knex(), refundedGeneration));
      const refunded = refundedGeneration.id;
      const moves: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        moves.push(await ledger.captureCredits(knex(), { organizationId, generationId: captured, reserved: 40, charged: 30 }));
        moves.push(await ledger.refundCredits(knex(), { organizationId, generationId: refunded, amount: 20 }));
      }
      assert.deepEqual(moves, [true, true, false, false, false, false]);
      assert.deepEqual(await ledgerKinds(captured), ['reserve', 'capture', 'release']);
      assert.deepEqual(await ledgerKinds(refunded), ['reserve', 'refund']);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 70, reservedCredits: 0 });
    });

    it('does not refund a captured generation, even while other reservations hold credits', async () => {
      // Without the rule, this refund would take its 50 out of the other generation's reservation.
      const { organizationId, generationId, gen } = await reserved(200, 50);
      assert.ok(await ledger.admitGeneration(knex(), gen(100)));
      await ledger.captureCredits(knex(), { organizationId, generationId, reserved: 50, charged: 50 });
      assert.equal(await ledger.refundCredits(knex(), { organizationId, generationId, amount: 50 }), false);
      assert.deepEqual(await ledgerKinds(generationId), ['reserve', 'capture']);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 50, reservedCredits: 100 });
    });

    it('does not capture a refunded generation', async () => {
      const { organizationId, generationId, gen } = await reserved(200, 50);
      assert.ok(await ledger.admitGeneration(knex(), gen(100)));
      await ledger.refundCredits(knex(), { organizationId, generationId, amount: 50 });
      assert.equal(await ledger.captureCredits(knex(), { organizationId, generationId, reserved: 50, charged: 20 }), false);
      assert.deepEqual(await ledgerKinds(generationId), ['reserve', 'refund']);
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 100, reservedCredits: 100 });
    });

    it('lets exactly one of a concurrent capture and refund win', async () => {
      const { organizationId, gen } = await admissionOrg(10_000);
      const generations = Array.from({ length: 20 }, () => gen(100));
      for (const generation of generations) assert.ok(await ledger.admitGeneration(knex(), generation));
      const outcomes = await Promise.all(
        generations.map(async ({ id: generationId }) => {
          const args = { organizationId, generationId };
          const [captured, refunded] = await Promise.all([
            ledger.captureCredits(knex(), { ...args, reserved: 100, charged: 60 }),
            ledger.refundCredits(knex(), { ...args, amount: 100 }),
          ]);
          return { captured, refunded };
        }),
      );
      let spent = 0;
      for (const [i, { captured, refunded }] of outcomes.entries()) {
        assert.notEqual(captured, refunded, 'exactly one terminal movement');
        assert.deepEqual(await ledgerKinds(generations[i]!.id), captured ? ['reserve', 'capture', 'release'] : ['reserve', 'refund']);
        if (captured) spent += 60;
      }
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 10_000 - spent, reservedCredits: 0 });
    });

    it('commits with the caller’s transaction, and rolls back with it', async () => {
      const { organizationId, generationId } = await reserved(100, 30);
      await assert.rejects(
        knex().transaction(async (trx) => {
          await ledger.captureCredits(trx, { organizationId, generationId, reserved: 30, charged: 10 });
          throw new Error('the terminal status failed to commit');
        }),
        /terminal status/,
      );
      assert.deepEqual(await ledgerKinds(generationId), ['reserve']);
      await knex().transaction((trx) => ledger.refundCredits(trx, { organizationId, generationId, amount: 30 }));
      assert.deepEqual(await assertWalletMatchesLedger(organizationId), { availableCredits: 100, reservedCredits: 0 });
    });
  });

  it('keeps the wallet equal to its ledger under concurrent top-ups, adjustments, reservations and settlements', async () => {
    const { organizationId, gen } = await admissionOrg(300);
    const topUp = (amount: number) => ledger.adjustCredits(knex(), { organizationId, amount, reason: 'test' }).catch(() => false);
    const generations = Array.from({ length: 120 }, () => newId('gen'));
    // Interleaved, so the pool's queue mixes them; a negative adjustment that would go below zero
    // is refused by the CHECK and changes nothing.
    const reservations = await Promise.all(
      generations.map(async (generationId, i) => {
        const [held] = await Promise.all([
          ledger.admitGeneration(knex(), gen(7, 'live', { id: generationId })),
          i % 2 === 0 ? topUp(10) : undefined,
          i % 6 === 0 ? topUp(-15) : undefined,
        ]);
        return held;
      }),
    );
    const held = generations.filter((_, i) => reservations[i]);
    assert.ok(held.length > 0, 'some reservations fit');
    await assertWalletMatchesLedger(organizationId);

    const again = (generationId: string) => `${generationId}_2`;
    await Promise.all(
      held.map((generationId, i) =>
        Promise.all([
          i % 2 === 0
            ? ledger.captureCredits(knex(), { organizationId, generationId, reserved: 7, charged: i % 7 })
            : ledger.refundCredits(knex(), { organizationId, generationId, amount: 7 }),
          ledger.admitGeneration(knex(), gen(5, 'live', { id: again(generationId) })),
          topUp(3),
        ]),
      ),
    );
    const wallet = await assertWalletMatchesLedger(organizationId);
    const stillHeld = await knex()('ledger_entries')
      .where({ organization_id: organizationId, kind: 'reserve' })
      .whereIn('generation_id', held.map(again))
      .count<{ count: string }[]>('* as count');
    assert.equal(wallet.reservedCredits, 5 * Number(stillHeld[0]?.count));
  });
});
