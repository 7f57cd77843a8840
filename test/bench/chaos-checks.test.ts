import assert from 'node:assert/strict';
import { answerViolations, cutOffAnswers, unavailableAnswers } from '../../bench/chaos/answers';
import type { ComparisonRow } from '../../bench/chaos/comparison-checks';
import type { PlannedComparison } from '../../bench/chaos/comparison-workload';
import { MIN_IN_FLIGHT, MIN_IN_FLIGHT_SOAK, voidReasons } from '../../bench/chaos/fault-coverage';
import { busiestWindow } from '../../bench/chaos/side-webhooks';
import { plannedOutcomeViolations, type ApiView } from '../../bench/chaos/planned-outcomes';
import type { CancelResult, Submitted, SubmittedGeneration } from '../../bench/chaos/workload';
import type { FaultWindow } from '../../bench/lib/chaos-stack';
import type { ProbeOutcome } from '../../bench/lib/probe-trickle';

// The chaos run's verdict rules, checked without running it (a run takes minutes and loads the
// machine): a 503 is right only while a fault is on or within its grace, a fault that hit nothing
// voids the run, and the directives' planned outcomes are held against how things ended.

const T = 1_000_000;
const postgres: FaultWindow = { dependency: 'postgres', downAt: T + 10_000, backAt: T + 16_000 };
const answer = (startedAt: number, ms: number, status: number, code?: string): ProbeOutcome => ({ probe: 'image', startedAt, ms, status, code });

describe('the chaos run: 503s only during a fault', () => {
  it('names a 503 answered before any fault, and one sent past the grace after a fault', () => {
    const violations = answerViolations([answer(T, 50, 503, 'service_unavailable'), answer(postgres.backAt + 6_000, 50, 503, 'service_unavailable')], [postgres], T);
    assert.equal(violations.length, 2, violations.join('\n'));
    assert.match(violations[0]!, /before faults: 503 service_unavailable \(no fault on, nor one ended within 5 s\)/);
    assert.match(violations[1]!, /postgres back: 503 service_unavailable \(no fault on/);
  });

  it('takes a 503 in flight while the dependency was down, or sent within the 5 s after it came back', () => {
    const during = answer(postgres.downAt + 1_000, 50, 503, 'service_unavailable');
    // Sent before the fault, answered during it.
    const straddling = answer(postgres.downAt - 500, 9_000, 503, 'provider_unavailable');
    const inGrace = answer(postgres.backAt + 4_000, 50, 503, 'service_unavailable');
    assert.deepEqual(answerViolations([during, straddling, inGrace, answer(T, 20, 200)], [postgres], T), []);
    assert.deepEqual(unavailableAnswers([during, straddling, inGrace, answer(T, 50, 503)], [postgres]), [3]);
  });
});

describe('the chaos run: an API process killed mid-request', () => {
  const api: FaultWindow = { dependency: 'api', downAt: T + 30_000, backAt: T + 34_000 };
  const cut = (startedAt: number, ms: number): ProbeOutcome => ({ probe: 'image', startedAt, ms, status: 0, failure: 'connection', detail: 'socket hang up' });

  it('takes a connection cut while the API was down (or refused until it listened again), and counts it as what the kill cut off', () => {
    const inFlight = cut(api.downAt - 300, 310);
    const refused = cut(api.downAt + 2_000, 1);
    assert.deepEqual(answerViolations([inFlight, refused, answer(api.backAt + 100, 50, 200)], [api], T), []);
    assert.deepEqual(cutOffAnswers([inFlight, refused, answer(T, 20, 200)], [api]), [2]);
  });

  it('names a cut connection outside an API kill, one during another fault, and a 503 past the grace after the API came back', () => {
    const violations = answerViolations([cut(T, 5), cut(postgres.downAt + 100, 5)], [postgres, api], T);
    assert.equal(violations.length, 2, violations.join('\n'));
    assert.match(violations[0]!, /before faults: connection failure \(socket hang up\)/);
    assert.match(violations[1]!, /postgres down: connection failure/);
    assert.deepEqual(
      answerViolations([answer(api.backAt + 6_000, 5, 503, 'service_unavailable')], [api], T).map((v) => /api back: 503/.test(v)),
      [true],
    );
  });

  it('voids a run whose API kill cut off no request, whatever the 503s', () => {
    assert.deepEqual(voidReasons([{ fault: api, inFlight: MIN_IN_FLIGHT, unavailable: 0, cutOff: 3 }]), []);
    const [reason, ...rest] = voidReasons([{ fault: api, inFlight: MIN_IN_FLIGHT, unavailable: 5, cutOff: 0 }]);
    assert.deepEqual(rest, []);
    assert.match(reason!, /api fault .* cut off no request mid-flight/);
  });
});

describe('the chaos run: a fault that hit nothing voids the run', () => {
  it('names each fault with too few generations in flight or no 503, and no fault at all', () => {
    assert.deepEqual(voidReasons([{ fault: postgres, inFlight: MIN_IN_FLIGHT, unavailable: 1, cutOff: 0 }]), []);
    const reasons = voidReasons([
      { fault: postgres, inFlight: MIN_IN_FLIGHT - 1, unavailable: 4, cutOff: 0 },
      { fault: { ...postgres, dependency: 'worker' }, inFlight: 40, unavailable: 0, cutOff: 0 },
    ]);
    assert.equal(reasons.length, 2);
    assert.match(reasons[0]!, /postgres fault .* found 9 generations in flight, fewer than 10/);
    // A soak keeps a few operations going: one generation in flight is enough there, none is not.
    assert.deepEqual(voidReasons([{ fault: postgres, inFlight: 1, unavailable: 1, cutOff: 0 }], MIN_IN_FLIGHT_SOAK), []);
    assert.equal(voidReasons([{ fault: postgres, inFlight: 0, unavailable: 1, cutOff: 0 }], MIN_IN_FLIGHT_SOAK).length, 1);
    assert.match(reasons[1]!, /worker fault .* produced no 503/);
    assert.deepEqual(voidReasons([]), ['no fault was injected']);
  });
});

describe('the chaos run: planned outcomes', () => {
  const generation = (id: string, fails: boolean) => ({ id, fails, modality: 'image' }) as SubmittedGeneration;
  const view = (status: string, charged: number): ApiView => ({ status, error_code: status === 'failed' ? 'provider_error' : null, charged_credits: charged });
  const none = { cancels: [], comparisons: [], comparisonRows: [], comparisonCancels: [], plain: [] };

  it('passes #fail ended failed and uncharged, the others succeeded and charged, a cancelled one canceled', () => {
    const views = new Map([
      ['gen_fail', view('failed', 0)],
      ['gen_slow', view('succeeded', 12)],
      ['gen_cancelled', view('canceled', 0)],
      ['gen_probe', view('succeeded', 4)],
    ]);
    const cancels = [{ id: 'gen_cancelled', finalStatus: 200, attempts: [] }] as CancelResult[];
    const generations = [generation('gen_fail', true), generation('gen_slow', false), generation('gen_cancelled', false)];
    assert.deepEqual(plannedOutcomeViolations({ ...none, views, generations, cancels, plain: ['gen_probe'] }), []);
  });

  it('names a #fail that succeeded and was charged, a #slow that failed, a charged failure and a canceled one nobody cancelled', () => {
    const views = new Map([
      ['gen_fail_won', view('succeeded', 12)],
      ['gen_slow_lost', view('failed', 0)],
      ['gen_fail_charged', view('failed', 3)],
      ['gen_canceled', view('canceled', 0)],
      ['gen_free', view('succeeded', 0)],
    ]);
    const generations = [generation('gen_fail_won', true), generation('gen_slow_lost', false), generation('gen_fail_charged', true), generation('gen_canceled', false)];
    const violations = plannedOutcomeViolations({ ...none, views, generations, plain: ['gen_free'] });
    assert.equal(violations.length, 5, violations.join('\n'));
    assert.match(violations[0]!, /gen_fail_won .*planned failed, ended succeeded, charged 12/);
    assert.match(violations[1]!, /gen_slow_lost .*planned succeeded, ended failed provider_error/);
    assert.match(violations[2]!, /gen_fail_charged .*failed as planned, yet charged 3/);
    assert.match(violations[3]!, /gen_canceled .*ended canceled .* though nobody cancelled it/);
    assert.match(violations[4]!, /gen_free \(plain\): succeeded as planned, yet charged 0/);
  });

  it("holds a comparison to its planned verdict and each child to its model's #fail, unless a cancel landed", () => {
    const comparison = (id: string, planned: PlannedComparison['planned']) =>
      ({
        id,
        kind: 'comparison',
        modality: 'image',
        planned,
        models: ['flux-schnell', 'flux-dev'],
        failing: planned === 'partial' ? ['flux-dev'] : [],
      }) as unknown as Submitted<PlannedComparison>;
    const row = (id: string, status: string, children: [string, string, string][]) =>
      ({ id, status, children: children.map(([childId, model, childStatus]) => ({ id: childId, model, status: childStatus })) }) as unknown as ComparisonRow;
    const views = new Map([
      ['gen_a1', view('succeeded', 5)],
      ['gen_a2', view('succeeded', 5)],
      ['gen_b1', view('succeeded', 5)],
      ['gen_b2', view('canceled', 0)],
    ]);
    const args = {
      ...none,
      views,
      generations: [],
      comparisons: [comparison('cmp_a', 'partial'), comparison('cmp_b', 'partial')],
      comparisonRows: [
        row('cmp_a', 'succeeded', [
          ['gen_a1', 'flux-schnell', 'succeeded'],
          ['gen_a2', 'flux-dev', 'succeeded'],
        ]),
        row('cmp_b', 'succeeded', [
          ['gen_b1', 'flux-schnell', 'succeeded'],
          ['gen_b2', 'flux-dev', 'canceled'],
        ]),
      ],
      comparisonCancels: [{ id: 'cmp_b', finalStatus: 200, attempts: [] }] as CancelResult[],
    };
    const violations = plannedOutcomeViolations(args);
    assert.equal(violations.length, 2, violations.join('\n'));
    assert.match(violations[0]!, /comparison cmp_a child gen_a2 \(flux-dev, #fail\): planned failed, ended succeeded/);
    assert.match(violations[1]!, /comparison cmp_a \(image\): planned partial, ended succeeded/);

    // A 409 alone says the cancel changed nothing; after an attempt an API kill left unanswered, the
    // cancel may have landed first, and the verdict its canceled children give stands.
    const answered409 = (attempts: ProbeOutcome[]) =>
      [{ id: 'cmp_b', finalStatus: 409, attempts: [...attempts, answer(T + 2_000, 5, 409, 'comparison_not_cancelable')] }] as CancelResult[];
    const cut: ProbeOutcome = { probe: 'cancel comparison', startedAt: T, ms: 5, status: 0, failure: 'connection' };
    const failedRow = row('cmp_b', 'failed', [
      ['gen_b1', 'flux-schnell', 'canceled'],
      ['gen_b2', 'flux-dev', 'canceled'],
    ]);
    const cancelledViews = new Map([
      ['gen_b1', view('canceled', 0)],
      ['gen_b2', view('canceled', 0)],
    ]);
    const only = { ...args, views: cancelledViews, comparisons: [comparison('cmp_b', 'partial')], comparisonRows: [failedRow] };
    assert.deepEqual(plannedOutcomeViolations({ ...only, comparisonCancels: answered409([cut]) }), []);
    assert.deepEqual(plannedOutcomeViolations({ ...only, comparisonCancels: answered409([]) }), ['comparison cmp_b (image): planned partial, ended failed']);
  });
});

describe("the chaos run: the throttled webhook's busiest second", () => {
  it('counts the most receipts within any one second, windows sliding over the receipts', () => {
    // Five a second, evenly spaced: never more than five in a second.
    assert.equal(
      busiestWindow(
        Array.from({ length: 50 }, (_, i) => T + i * 200),
        1_000,
      ),
      5,
    );
    // A burst of three 10 ms apart across a whole-second boundary: five from T + 200 to T + 1010,
    // though no calendar second holds more than four.
    assert.equal(busiestWindow([T, T + 200, T + 400, T + 990, T + 1_000, T + 1_010, T + 1_400], 1_000), 5);
    assert.equal(busiestWindow([], 1_000), 0);
  });
});
