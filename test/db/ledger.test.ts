import assert from 'node:assert/strict';
import * as ledger from '../../db/ledger';
import { newId } from '../../lib/ids';
import { createOrganization } from '../helpers/http';
import { assertLedgerBalanced } from '../helpers/ledger';
import { stack } from '../helpers/stack';

const knex = () => stack().knex;

describe('ledger', () => {
  it('admits exactly as many concurrent reservations as the wallet covers', async () => {
    const org = await createOrganization({ credits: 0 });
    await ledger.adjustCredits(knex(), { organizationId: org.id, amount: 7 * 30, reason: 'test' });
    const attempts = Array.from({ length: 70 }, () =>
      ledger.reserveCredits(knex(), { organizationId: org.id, generationId: newId('gen'), amount: 30 }),
    );
    const results = await Promise.all(attempts);
    assert.equal(results.filter(Boolean).length, 7);
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 0, reservedCredits: 210 });
  });

  it('captures part of a reservation and releases the rest', async () => {
    const org = await createOrganization({ credits: 100 });
    const generationId = newId('gen');
    assert.ok(await ledger.reserveCredits(knex(), { organizationId: org.id, generationId, amount: 60 }));
    await ledger.captureCredits(knex(), { organizationId: org.id, generationId, reserved: 60, charged: 25 });
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 75, reservedCredits: 0 });
  });

  it('never captures more than was reserved', async () => {
    const org = await createOrganization({ credits: 100 });
    const generationId = newId('gen');
    await ledger.reserveCredits(knex(), { organizationId: org.id, generationId, amount: 10 });
    await assert.rejects(
      ledger.captureCredits(knex(), { organizationId: org.id, generationId, reserved: 10, charged: 11 }),
      RangeError,
    );
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 90, reservedCredits: 10 });
  });

  it('moves money once however often a capture or refund is retried', async () => {
    const org = await createOrganization({ credits: 100 });
    const captured = newId('gen');
    const refunded = newId('gen');
    await ledger.reserveCredits(knex(), { organizationId: org.id, generationId: captured, amount: 40 });
    await ledger.reserveCredits(knex(), { organizationId: org.id, generationId: refunded, amount: 20 });
    for (let i = 0; i < 3; i++) {
      await ledger.captureCredits(knex(), { organizationId: org.id, generationId: captured, reserved: 40, charged: 30 });
      await ledger.refundCredits(knex(), { organizationId: org.id, generationId: refunded, amount: 20 });
    }
    assert.deepEqual(await assertLedgerBalanced(org.id), { availableCredits: 70, reservedCredits: 0 });
  });

  it('lets the database refuse any write that would make a balance negative', async () => {
    const org = await createOrganization({ credits: 5 });
    await assert.rejects(knex()('wallets').where({ organization_id: org.id }).update({ available_credits: -1 }), /wallets_available_non_negative/);
  });
});
