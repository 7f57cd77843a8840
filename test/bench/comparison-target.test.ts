import assert from 'node:assert/strict';
import { comparisonTarget } from '../../bench/lib/comparison-target';

// bench:comparisons' verdict, checked without running the benchmark: the p90 of the per-round
// ratios (not of each side's own times), and no verdict on fewer than 20 rounds.

/** `rounds` rounds whose singles take 2000 ms and whose comparisons take `ratio(i)` times as long. */
function rounds(count: number, ratio: (i: number) => number): [number[], number[]] {
  const single = Array.from({ length: count }, () => 2000);
  return [single.map((s, i) => s * ratio(i)), single];
}

describe("bench:comparisons' target", () => {
  it('judges the p90 of the per-round ratios: 18 of 20 rounds at 1.10x pass, 3 of 20 at 1.30x fail', () => {
    const pass = comparisonTarget(...rounds(20, (i) => (i < 18 ? 1.1 : 1.3)), 'cmp');
    assert.equal(pass.pass, true);
    assert.equal(pass.ratioAtQuantile.toFixed(2), '1.10');
    const fail = comparisonTarget(...rounds(20, (i) => (i < 17 ? 1.1 : 1.3)), 'cmp');
    assert.equal(fail.pass, false);
    assert.equal(fail.ratioAtQuantile.toFixed(2), '1.30');
    assert.match(fail.result, /^1\.300x at p90 \(median 1\.10x \(range 1\.10–1\.30x, 20 rounds\)\)$/);
  });

  it('pairs each comparison with the single of its own round, not the two sides pooled', () => {
    // A machine whose speed drifts: singles from 1000 to 3850 ms. The comparisons of the 3 fastest
    // rounds take 1.3x their single, the rest 1.0x. The two sides' own p90s are both 3550 ms (1.0x,
    // a pass); the rounds say 3 of 20 comparisons cost 1.3x their single: p90 1.3x, a fail.
    const single = Array.from({ length: 20 }, (_, i) => 1000 + i * 150);
    const comparison = single.map((s, i) => s * (i < 3 ? 1.3 : 1));
    const r = comparisonTarget(comparison, single, 'cmp');
    assert.equal(r.ratioAtQuantile.toFixed(2), '1.30');
    assert.equal(r.pass, false);
    assert.throws(() => comparisonTarget([1, 2], [1], 'cmp'), /unpaired rounds/);
  });

  it('gives no verdict on fewer than 20 rounds, and says why', () => {
    const r = comparisonTarget(...rounds(19, () => 2), 'cmp');
    assert.equal(r.pass, undefined);
    assert.match(r.result, /not judged: 19 rounds, fewer than 20$/);
    assert.equal(r.target, '≤ 1.15x at p90 of per-round ratios, n ≥ 20');
  });
});
