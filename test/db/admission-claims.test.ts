import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { admitGeneration, admitGenerationsBatch, getWalletBalance, sumLedger } from '../../db/ledger';
import type { NewGeneration } from '../../db/repos/generations';
import { newId } from '../../lib/ids';
import { createOrganization } from '../helpers/http';
import { stack } from '../helpers/stack';

// The admission deadline is enforced where the reservation commits: a reservation commits only
// before its deadline, and never after the API has given up on it (and answered 503).
// These tests run the admission statement itself, without a workflow around it, so they check the
// wallet against its ledger and not the workflow invariants of test/helpers/money-invariants.ts.

async function walletMatchingLedger(organizationId: string) {
  const wallet = await getWalletBalance(stack().knex, organizationId);
  assert.deepEqual(wallet, await sumLedger(stack().knex, organizationId));
  return wallet;
}

async function organizationWithKey(credits = 1000) {
  const org = await createOrganization({ credits });
  const key = await stack().knex('api_keys').where({ organization_id: org.id, environment: 'live' }).first('id');
  const gen = (over: Partial<NewGeneration> = {}): NewGeneration => ({
    id: newId('gen'),
    organization_id: org.id,
    api_key_id: key.id,
    environment: 'live',
    modality: 'image',
    model: 'flux-schnell',
    prompt: 'claims',
    params: {},
    reserved_credits: 10,
    admit_by: Date.now() + 60_000,
    ...over,
  });
  return { org, gen };
}

describe('admission claims', () => {
  it('admit nothing once the deadline has passed, in one statement or in a batch', async () => {
    const { org, gen } = await organizationWithKey();
    const late = gen({ admit_by: Date.now() - 1 });
    assert.equal(await admitGeneration(stack().knex, late), false);
    const [ok, lateToo] = await admitGenerationsBatch(stack().knex, org.id, [gen(), gen({ admit_by: Date.now() - 1 })]);
    assert.deepEqual([ok, lateToo], [true, false]);
    assert.equal(await stack().repos.generations.findById(late.id), undefined);
    assert.equal(await stack().repos.admissionClaims.refusalReason(late.id, late.admit_by!), 'admission_timeout');
    assert.deepEqual(await walletMatchingLedger(org.id), { availableCredits: 990, reservedCredits: 10 });
  });

  it('let the API win: a reservation can no longer commit after the API abandoned it', async () => {
    const { org, gen } = await organizationWithKey();
    const abandoned = gen();
    assert.equal(await stack().repos.admissionClaims.abandon(abandoned.id, abandoned.admit_by!), true);
    assert.equal(await admitGeneration(stack().knex, abandoned), false);
    assert.deepEqual(await admitGenerationsBatch(stack().knex, org.id, [abandoned, gen()]), [false, true]);
    assert.equal(await stack().repos.admissionClaims.refusalReason(abandoned.id, abandoned.admit_by!), 'admission_timeout');
    assert.equal(await stack().repos.generations.findById(abandoned.id), undefined);
    assert.deepEqual(await walletMatchingLedger(org.id), { availableCredits: 990, reservedCredits: 10 });
  });

  it('let the worker win: the API cannot abandon an admission a worker decided', async () => {
    const { org, gen } = await organizationWithKey(5);
    const admitted = gen({ reserved_credits: 5 });
    const refused = gen({ reserved_credits: 5 });
    assert.equal(await admitGeneration(stack().knex, admitted), true);
    assert.equal(await admitGeneration(stack().knex, refused), false);
    assert.equal(await stack().repos.admissionClaims.abandon(admitted.id, admitted.admit_by!), false);
    assert.equal(await stack().repos.admissionClaims.abandon(refused.id, refused.admit_by!), false);
    assert.equal(await stack().repos.admissionClaims.refusalReason(refused.id, refused.admit_by!), 'insufficient_credits');
    // A retried admission stands by its first decision.
    assert.equal(await admitGeneration(stack().knex, admitted), true);
    assert.equal(await admitGeneration(stack().knex, refused), false);
    assert.deepEqual(await walletMatchingLedger(org.id), { availableCredits: 0, reservedCredits: 5 });
  });

  it('race: of an API abandoning and a worker admitting at once, exactly one wins, every time', async () => {
    const { org, gen } = await organizationWithKey(100_000);
    let apiWon = 0;
    let workerWon = 0;
    // How long each side takes depends on the machine's load, so one side can win every time when
    // both start together: the abandon starts up to 8 ms before the admission to up to 32 ms after
    // it, sweeping the race across both statements' runs. Which one commits first is up to Postgres.
    const lags = [-8, -2, 0, 1, 2, 4, 8, 16, 32];
    for (let i = 0; i < 5 * lags.length; i++) {
      const g = gen();
      const lag = lags[i % lags.length]!;
      const abandon = async () => {
        if (lag > 0) await sleep(lag);
        return stack().repos.admissionClaims.abandon(g.id, g.admit_by!);
      };
      const admit = async () => {
        if (lag < 0) await sleep(-lag);
        return admitGeneration(stack().knex, g);
      };
      const [abandoned, admitted] = i % 2 === 0 ? await Promise.all([abandon(), admit()]) : await Promise.all([admit(), abandon()]).then(([a, b]) => [b, a] as const);
      assert.notEqual(abandoned, admitted, `exactly one of them won for ${g.id}`);
      assert.equal(Boolean(await stack().repos.generations.findById(g.id)), admitted);
      if (abandoned) apiWon += 1;
      else workerWon += 1;
    }
    assert.ok(apiWon > 0 && workerWon > 0, `both outcomes occurred (api ${apiWon}, worker ${workerWon})`);
    await walletMatchingLedger(org.id);
  });
});
