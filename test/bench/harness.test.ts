import assert from 'node:assert/strict';
import { formatRatio, interleaved, ratioOf, type BenchResultFile } from '../../bench/lib/harness';
import { renderTable } from '../../bench/report';

// The benchmark harness's rules, checked without running a benchmark: interleaved rounds rotate
// which side goes first, a ratio is the median of per-round ratios, and the generated table shows
// only what a result file holds.

describe('the benchmark harness', () => {
  it('runs the sides in rounds, each side going first in turn', async () => {
    const order: string[] = [];
    const out = await interleaved(4, ['gateway', 'floor'] as const, async (side, i) => (order.push(`${i}:${side}`), i));
    assert.deepEqual(order, ['0:gateway', '0:floor', '1:floor', '1:gateway', '2:gateway', '2:floor', '3:floor', '3:gateway']);
    assert.deepEqual(out, { gateway: [0, 1, 2, 3], floor: [0, 1, 2, 3] });
  });

  it('takes the median of the per-round ratios, with their range', () => {
    // Pooled, these would give 26/13 = 2.0; per round the ratios are 1.0, 1.5 and 4.0.
    const r = ratioOf([10, 12, 4], [10, 8, 1]);
    assert.deepEqual(r, { median: 1.5, min: 1, max: 4, rounds: 3 });
    assert.equal(formatRatio(r), '1.50x (range 1.00–4.00x, 3 rounds)');
  });

  it('generates a row per target from the result files, and says when a benchmark has none', () => {
    const result = {
      bench: 'images',
      command: 'npm run bench:images',
      commit: 'abc1234',
      dirty: false,
      finishedAt: '2026-11-27T06:00:00.000Z',
      verdict: 'FAIL',
      targets: [
        { name: 'p50 / floor, c=8', target: '≤ 1.3x', result: '1.40x', pass: false },
        { name: 'p50 / floor, c=1', target: '≤ 1.1x', result: '1.05x', pass: true },
      ],
    } as BenchResultFile;
    const table = renderTable(new Map([['images', result]]), [
      { name: 'images', command: 'npm run bench:images' },
      { name: 'usage', command: 'npm run bench:usage' },
    ]).split('\n');
    assert.equal(table.length, 5);
    assert.match(table[2]!, /\| p50 \/ floor, c=8 \| ≤ 1\.3x \| 1\.40x \| \*\*FAIL\*\* \| `abc1234`, 2026-11-27 \|$/);
    assert.match(table[3]!, /\| 1\.05x \| PASS \|/);
    assert.match(table[4]!, /^\| usage \| `npm run bench:usage` \| \| \| no run under the harness yet/);
  });
});
