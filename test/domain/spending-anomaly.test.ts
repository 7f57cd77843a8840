import assert from 'node:assert/strict';
import { ANOMALY_BASELINE_MS, ANOMALY_WINDOW_MS, BASELINE_WINDOWS, baselineAverage, isSpendingAnomaly, spendPeriods } from '../../domain/spending-anomaly';

const at = (iso: string) => new Date(iso);

describe('spending anomaly rule', () => {
  const rule = (windowSpend: number, average: number) => isSpendingAnomaly({ windowSpend, baselineAverage: average, factor: 10, floor: 50_000 });

  it('trips only when the window is above both the floor and factor × the baseline average', () => {
    assert.equal(rule(60_000, 0), true);
    assert.equal(rule(60_000, 5_999), true);
    assert.equal(rule(60_000, 6_000), false, 'exactly factor × the average is not above it');
    assert.equal(rule(50_000, 0), false, 'exactly the floor is not above it');
    assert.equal(rule(49_999, 0), false);
  });

  it('averages the baseline over the 1,008 ten-minute windows of 7 days', () => {
    assert.equal(BASELINE_WINDOWS, 1_008);
    assert.equal(baselineAverage(100_800), 100);
    assert.equal(baselineAverage(0), 0);
  });

  it('judges the last 10 minutes against the 7 days before them', () => {
    const now = at('2025-03-10T12:00:00.000Z');
    const periods = spendPeriods(now, null);
    assert.deepEqual(periods.window, { start: at('2025-03-10T11:50:00.000Z'), end: now });
    assert.deepEqual(periods.baseline, { start: at('2025-03-03T11:50:00.000Z'), end: at('2025-03-10T11:50:00.000Z') });
    assert.equal(periods.baseline.end.getTime() - periods.baseline.start.getTime(), ANOMALY_BASELINE_MS);
  });

  it('starts the window no earlier than the last unpause, so a judged burst is not judged again', () => {
    const now = at('2025-03-10T12:00:00.000Z');
    const unpaused = at('2025-03-10T11:57:00.000Z');
    const periods = spendPeriods(now, unpaused);
    assert.deepEqual(periods.window, { start: unpaused, end: now });
    assert.deepEqual(periods.baseline.end, at('2025-03-10T11:50:00.000Z'), 'the baseline keeps its place');
  });

  it('ignores an unpause older than the window, and clamps one in the future to an empty window', () => {
    const now = at('2025-03-10T12:00:00.000Z');
    const { window } = spendPeriods(now, at('2025-03-09T00:00:00.000Z'));
    assert.equal(window.end.getTime() - window.start.getTime(), ANOMALY_WINDOW_MS);
    assert.deepEqual(spendPeriods(now, at('2025-03-10T12:05:00.000Z')).window, { start: now, end: now });
  });
});
