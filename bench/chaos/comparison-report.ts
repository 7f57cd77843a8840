import { comparisonVerdict } from '../../domain/comparison-status';
import { isTerminal } from '../../domain/generation-status';
import { textTable } from '../lib/text-table';
import type { ComparisonFigures, ComparisonRow } from './comparison-checks';

// The comparison figures a chaos run prints: verdicts by modality, how many comparisons passed each
// check, which ended otherwise than their directives asked (and why), and who recorded the verdict.

const VERDICTS = ['succeeded', 'partial', 'failed', 'open'];

function verdictTable(rows: ComparisonRow[]): string {
  const modalities = [...[...new Set(rows.map((r) => r.modality))].sort(), undefined];
  return textTable(
    ['modality', ...VERDICTS, 'total'],
    modalities.map((m) => {
      const mine = rows.filter((r) => m === undefined || r.modality === m);
      return [m ?? 'all', ...VERDICTS.map((v) => mine.filter((r) => r.status === v).length), mine.length];
    }),
  );
}

/** The events' data as the rows imply it (comparison-checks.ts compares field by field). */
function eventMatches(row: ComparisonRow): boolean {
  const data = row.events[0];
  const total = (pick: (c: ComparisonRow['children'][number]) => number) => row.children.reduce((s, c) => s + pick(c), 0);
  return (
    row.events.length === 1 &&
    data?.status === row.status &&
    data.reserved_credits === row.reserved &&
    data.charged_credits === total((c) => c.charged) &&
    data.refunded_credits === total((c) => c.refunded) &&
    JSON.stringify(data.generation_ids) === JSON.stringify(row.children.map((c) => c.id))
  );
}

export function comparisonSummary(f: ComparisonFigures): string {
  const n = f.rows.length;
  const passing = (check: (r: ComparisonRow) => boolean) => `${f.rows.filter(check).length}/${n}`;
  const children = f.rows.flatMap((r) => r.children);
  const cancelled = new Set(f.cancels.map((c) => c.id));
  const planned = new Map(f.submitted.map((s) => [s.id, s.planned]));
  const uncancelled = f.rows.filter((r) => !cancelled.has(r.id) && planned.has(r.id));
  const differing = uncancelled.filter((r) => r.status !== planned.get(r.id));
  const cancelsAnswered = (status: number) => f.cancels.filter((c) => c.finalStatus === status).length;
  const afterCancel = new Map<string, number>();
  for (const r of f.rows.filter((r) => cancelled.has(r.id))) afterCancel.set(r.status, (afterCancel.get(r.status) ?? 0) + 1);
  const list = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  return [
    `comparisons: ${f.submitted.length} accepted before the faults (${children.length} children); verdicts by modality:`,
    verdictTable(f.rows),
    `with a verdict ${(f.drainedMs / 1000).toFixed(1)} s after the faults: ${n - f.notFinished}/${n}`,
    `status = its children's verdict ${passing((r) => r.status === comparisonVerdict(r.children.map((c) => c.status)))}, ` +
      `finished_at set ${passing((r) => r.finishedAt !== null)}, ` +
      `exactly one comparison.completed that matches the rows ${passing(eventMatches)}, ` +
      `reserved = Σ children ${passing((r) => r.reserved === r.children.reduce((s, c) => s + c.reserved, 0))}, ` +
      `children terminal ${children.filter((c) => isTerminal(c.status)).length}/${children.length}`,
    `verdict as the directives planned it (comparisons not cancelled): ${uncancelled.length - differing.length}/${uncancelled.length}` +
      (differing.length === 0
        ? ''
        : `; otherwise: ${differing
            .map((r) => `${r.id} planned ${planned.get(r.id)}, ended ${r.status} (${r.children.map((c) => `${c.status}${c.error_code ? ` ${c.error_code}` : ''}`).join(', ')})`)
            .join('; ')}`),
    `comparison cancels: ${f.cancels.length} (200 ${cancelsAnswered(200)}, 409 already finished ${cancelsAnswered(409)}, ` +
      `202 still landing ${cancelsAnswered(202)}, never answered ${cancelsAnswered(0)}; ${f.cancels.flatMap((c) => c.attempts).length} attempts); ` +
      `cancelled comparisons ended: ${list(afterCancel)}`,
    `verdicts recorded by the reconciler (its log line): ${f.reconciled.length}${f.reconciled.length > 0 ? ` (${f.reconciled.join(', ')})` : ''}; ` +
      `of the ${f.terminated.length} comparisons whose workflow was terminated: ${f.terminated.filter((id) => f.reconciled.includes(id)).length}`,
    `comparison workflows in Temporal: ${list(f.workflows)}`,
  ].join('\n');
}
