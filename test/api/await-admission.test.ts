import assert from 'node:assert/strict';
import { ANSWER_WITH_ADMISSION_FIRST_LOOK_MS, awaitAdmission, type AdmissionWaitArgs } from '../../api/await-admission';
import { budgetPeriodOf } from '../../domain/budget-period';
import type { Admission } from '../../workflows/definitions';
import { stack } from '../helpers/stack';

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
});
