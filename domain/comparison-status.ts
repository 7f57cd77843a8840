import { isTerminal, type GenerationStatus } from './generation-status';

// A comparison's status (decisions §5) follows from its children's: `queued` until a child starts,
// `running` until every child is terminal, then `succeeded` (all succeeded), `partial` (at least
// one succeeded, at least one did not) or `failed` (none succeeded).

export const COMPARISON_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed'] as const;
export type ComparisonStatus = (typeof COMPARISON_STATUSES)[number];
export type ComparisonVerdict = Extract<ComparisonStatus, 'succeeded' | 'partial' | 'failed'>;

/** The verdict once every child is terminal; undefined while any is not. */
export function comparisonVerdict(children: readonly GenerationStatus[]): ComparisonVerdict | undefined {
  if (children.length === 0 || !children.every(isTerminal)) return undefined;
  const succeeded = children.filter((s) => s === 'succeeded').length;
  if (succeeded === children.length) return 'succeeded';
  return succeeded > 0 ? 'partial' : 'failed';
}

/** A comparison has its verdict: it will not change again. */
export function isComparisonFinished(status: ComparisonStatus): boolean {
  return status !== 'queued' && status !== 'running';
}

/** What an open comparison shows: `queued` while no child has left the queue, else `running`. */
export function openComparisonStatus(children: readonly GenerationStatus[]): 'queued' | 'running' {
  return children.every((s) => s === 'queued') ? 'queued' : 'running';
}

export interface ComparisonTotals {
  reserved_credits: number;
  charged_credits: number;
  refunded_credits: number;
}

/** `comparison.completed`'s data (decisions §5), as written to the outbox with the verdict. */
export function comparisonCompletedEvent(comparison: { id: string; modality: string; status: ComparisonVerdict; totals: ComparisonTotals; generationIds: string[] }): {
  type: 'comparison.completed';
  data: Record<string, unknown>;
} {
  return {
    type: 'comparison.completed',
    data: {
      comparison_id: comparison.id,
      status: comparison.status,
      modality: comparison.modality,
      ...comparison.totals,
      generation_ids: comparison.generationIds,
    },
  };
}
