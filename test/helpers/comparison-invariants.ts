import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { comparisonVerdict } from '../../domain/comparison-status';
import type { GenerationStatus } from '../../domain/generation-status';

// The comparison half of the money invariants (test/helpers/money-invariants.ts):
//   (d) a comparison reserved exactly the sum of its children's reservations;
//   (e) a comparison with a verdict has the verdict its children give, a finished_at, and exactly
//       one `comparison.completed` event; an open one has no event yet;
//   (f) no comparison stays open once its workflow is closed and its children are all terminal.
// The children's own money is checked as every generation's is.

interface ComparisonState {
  id: string;
  status: string;
  reserved: number;
  finishedAt: Date | null;
  children: { id: string; status: GenerationStatus; reserved: number }[];
  events: number;
}

export async function readComparisons(trx: Knex.Transaction, organizationId?: string): Promise<ComparisonState[]> {
  const rows: {
    id: string;
    status: string;
    reserved_credits: number;
    finished_at: Date | null;
    children: ComparisonState['children'] | null;
    events: number;
  }[] = await trx('comparisons as c')
    .modify((q) => void (organizationId && q.where('c.organization_id', organizationId)))
    .select(
      'c.id',
      'c.status',
      'c.reserved_credits',
      'c.finished_at',
      trx.raw(`(SELECT json_agg(json_build_object('id', g.id, 'status', g.status, 'reserved', g.reserved_credits) ORDER BY g.comparison_position)
                  FROM generations g WHERE g.comparison_id = c.id) AS children`),
      trx.raw(`(SELECT count(*)::int FROM events e WHERE e.subject_id = c.id AND e.type = 'comparison.completed') AS events`),
    );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    reserved: Number(r.reserved_credits),
    finishedAt: r.finished_at,
    children: (r.children ?? []).map((c) => ({ ...c, reserved: Number(c.reserved) })),
    events: r.events,
  }));
}

export function comparisonViolations(c: ComparisonState): string[] {
  const violations: string[] = [];
  const name = `comparison ${c.id} (${c.status}, reserved ${c.reserved})`;
  const childReserved = c.children.reduce((sum, child) => sum + child.reserved, 0);
  if (c.reserved !== childReserved) violations.push(`${name}: its children reserved ${childReserved}`);
  if (c.children.length < 2) violations.push(`${name}: has ${c.children.length} children`);
  if (c.status === 'open') {
    if (c.events !== 0) violations.push(`${name}: open, yet ${c.events} comparison.completed events`);
    return violations;
  }
  const verdict = comparisonVerdict(c.children.map((child) => child.status));
  if (c.status !== verdict) violations.push(`${name}: its children (${c.children.map((ch) => ch.status).join(', ')}) give ${verdict ?? 'no verdict yet'}`);
  if (!c.finishedAt) violations.push(`${name}: has a verdict but no finished_at`);
  if (c.events !== 1) violations.push(`${name}: ${c.events} comparison.completed events, expected exactly 1`);
  return violations;
}

/** Open comparisons whose workflow is closed and whose children are all terminal: nothing will ever finish them. */
export async function strandedComparisons(knex: Knex, temporal: Client, comparisons: ComparisonState[]): Promise<string[]> {
  const violations: string[] = [];
  for (const c of comparisons.filter((c) => c.status === 'open' && comparisonVerdict(c.children.map((ch) => ch.status)))) {
    if ((await workflowStatus(temporal, c.id)) === 'RUNNING') continue;
    const now = await knex('comparisons').where({ id: c.id }).first('status');
    if (now && now.status !== 'open') continue;
    violations.push(`comparison ${c.id}: every child is terminal and its workflow is closed, yet it has no verdict`);
  }
  return violations;
}

export async function workflowStatus(temporal: Client, workflowId: string): Promise<string> {
  try {
    return (await temporal.workflow.getHandle(workflowId).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'missing';
    throw err;
  }
}
