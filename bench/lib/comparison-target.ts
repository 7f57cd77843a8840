import { formatRatio, ratioOf, type TargetResult } from './harness';
import { percentile } from './stats';

// bench:comparisons' target, apart from the run so that its rule can be tested without one: the
// wall of a 12-model comparison over the wall of one single generation, measured in the same
// interleaved round, at most 1.15x at the p90 of those per-round ratios, judged on at least 20
// rounds (fewer cannot say what a p90 is, so such a run reports its figure without a verdict).

export const COMPARISON_TARGET = { maxRatio: 1.15, quantile: 0.9, minRounds: 20 } as const;

/** The p90 of the per-round ratios comparison[i] / single[i], and the target's verdict on it. */
export function comparisonTarget(comparisonWallMs: number[], singleWallMs: number[], what: string): TargetResult & { ratioAtQuantile: number } {
  if (comparisonWallMs.length !== singleWallMs.length) throw new Error(`unpaired rounds: ${comparisonWallMs.length} comparisons, ${singleWallMs.length} singles`);
  const { maxRatio, quantile, minRounds } = COMPARISON_TARGET;
  const rounds = comparisonWallMs.length;
  const ratios = comparisonWallMs.map((c, i) => c / singleWallMs[i]!).sort((a, b) => a - b);
  const ratioAtQuantile = percentile(ratios, quantile);
  const judged = rounds >= minRounds;
  return {
    name: what,
    target: `≤ ${maxRatio}x at p${quantile * 100} of per-round ratios, n ≥ ${minRounds}`,
    result:
      `${ratioAtQuantile.toFixed(3)}x at p${quantile * 100} (median ${formatRatio(ratioOf(comparisonWallMs, singleWallMs))})` +
      (judged ? '' : `; not judged: ${rounds} rounds, fewer than ${minRounds}`),
    ...(judged && { pass: ratioAtQuantile <= maxRatio }),
    ratioAtQuantile,
  };
}
