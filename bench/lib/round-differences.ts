import { median } from './harness';

// What one side adds over another in milliseconds, taken as the harness takes a ratio (ratioOf):
// the median of the per-round differences, with their range, so a round the shared machine slowed
// lands on both sides of its own difference. For benches whose target is an added cost (bench:auth,
// "the guards add under 1 ms") or that report one (bench:ledger-triggers).

export interface RoundDifference {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

/** The median of per-round differences a[i] − b[i], with their range. */
export function differenceOf(a: number[], b: number[]): RoundDifference {
  const differences = a.map((x, i) => x - b[i]!);
  return { median: median(differences), min: Math.min(...differences), max: Math.max(...differences), rounds: differences.length };
}

const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)} ms`;

export function formatDifference(d: RoundDifference): string {
  return `${signed(d.median)} (range ${signed(d.min)} to ${signed(d.max)}, ${d.rounds} rounds)`;
}
