import assert from 'node:assert/strict';
import { differenceOf, formatDifference } from '../../bench/lib/round-differences';

// What one side adds over another is taken per round, as a ratio is (harness.test.ts): a round the
// machine slowed on both sides must not move the figure the way pooled figures would.

describe('the per-round difference of a benchmark', () => {
  it('takes the median of the per-round differences, with their range', () => {
    // Pooled means would give 40/3 − 31/3 = +3 ms; per round the guards added +0.5, +1 and +7.5 ms.
    const d = differenceOf([1.5, 3, 35.5], [1, 2, 28]);
    assert.deepEqual(d, { median: 1, min: 0.5, max: 7.5, rounds: 3 });
    assert.equal(formatDifference(d), '+1.00 ms (range +0.50 ms to +7.50 ms, 3 rounds)');
  });

  it('prints a side that costs less as a negative difference', () => {
    assert.equal(formatDifference(differenceOf([2, 2], [3, 2.5])), '−0.75 ms (range −1.00 ms to −0.50 ms, 2 rounds)');
  });
});
