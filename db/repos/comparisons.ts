import type { Knex } from 'knex';
import { comparisonCompletedEvent, comparisonVerdict, type ComparisonTotals, type ComparisonVerdict } from '../../domain/comparison-status';
import type { Environment } from '../../domain/generation-status';
import type { Modality } from '../../domain/modalities';
import { newId } from '../../lib/ids';
import type { Db } from '../knex';
import { OUTPUTS_EXPIRE_AT, type GenerationRow, type OutputRow } from './generations';

export interface ComparisonRow {
  id: string;
  organization_id: string;
  api_key_id: string;
  environment: Environment;
  modality: Modality;
  /** `open` until every child is terminal, then the verdict (db/migrations/0010-comparisons.ts). */
  status: 'open' | ComparisonVerdict;
  prompt: string;
  params_shared: Record<string, unknown>;
  reserved_credits: number;
  /** The `Cancel-After` deadline its children share (db/migrations/0025-deadlines.ts); null without one. */
  deadline_at?: Date | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface ComparisonChild {
  generation: GenerationRow;
  outputs: OutputRow[];
}

type Owner = { organizationId: string; environment: Environment };

/** The children of the given comparisons with their outputs, in one query, in `models` order. */
async function childrenOf(trx: Db, comparisonIds: string[]): Promise<Map<string, ComparisonChild[]>> {
  const rows = (await trx('generations as g')
    .select(
      'g.*',
      trx.raw(`coalesce((SELECT json_agg(o ORDER BY o.position) FROM generation_outputs o WHERE o.generation_id = g.id), '[]'::json) AS outputs`),
      trx.raw(OUTPUTS_EXPIRE_AT),
    )
    .whereIn('g.comparison_id', comparisonIds)
    .orderBy('g.comparison_position')) as (GenerationRow & { outputs: OutputRow[] })[];
  const byComparison = new Map<string, ComparisonChild[]>(comparisonIds.map((id) => [id, []]));
  for (const { outputs, ...generation } of rows) byComparison.get(generation.comparison_id ?? '')?.push({ generation, outputs });
  return byComparison;
}

export function createComparisonsRepo(knex: Knex) {
  return {
    /** A comparison with its children; `owner` limits it to one organization and environment. */
    async findWithChildren(id: string, owner?: Owner, trx: Db = knex): Promise<{ comparison: ComparisonRow; children: ComparisonChild[] } | undefined> {
      const query = trx('comparisons').where({ id });
      if (owner) query.where({ organization_id: owner.organizationId, environment: owner.environment });
      const comparison: ComparisonRow | undefined = await query.first();
      if (!comparison) return undefined;
      return { comparison, children: (await childrenOf(trx, [id])).get(id) ?? [] };
    },

    /** A page of one organization's comparisons in one environment, newest first, with children. */
    async listPage(
      owner: Owner,
      page: { limit: number; startingAfter?: ComparisonRow },
      trx: Db = knex,
    ): Promise<{ rows: { comparison: ComparisonRow; children: ComparisonChild[] }[]; hasMore: boolean }> {
      const query = trx('comparisons')
        .where({ organization_id: owner.organizationId, environment: owner.environment })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (page.startingAfter) query.whereRaw('(created_at, id) < (?, ?)', [page.startingAfter.created_at, page.startingAfter.id]);
      const found = (await query) as ComparisonRow[];
      const shown = found.slice(0, page.limit);
      const children =
        shown.length > 0
          ? await childrenOf(
              trx,
              shown.map((c) => c.id),
            )
          : new Map<string, ComparisonChild[]>();
      return { rows: shown.map((comparison) => ({ comparison, children: children.get(comparison.id) ?? [] })), hasMore: found.length > page.limit };
    },

    /**
     * Records the verdict once every child is terminal, with its `comparison.completed` event, in one
     * transaction: the row lock makes the verdict and its event happen exactly once, whoever asks
     * (the comparison's workflow, or the reconciler for a comparison whose workflow died). Returns
     * the comparison's status afterwards: still `open` while a child is not terminal.
     */
    async finish(id: string): Promise<ComparisonRow['status'] | undefined> {
      return knex.transaction(async (trx) => {
        const comparison: ComparisonRow | undefined = await trx('comparisons').where({ id }).forUpdate().first();
        if (!comparison || comparison.status !== 'open') return comparison?.status;
        const children: Pick<GenerationRow, 'id' | 'status' | 'reserved_credits' | 'charged_credits' | 'refunded_credits'>[] = await trx('generations')
          .where({ comparison_id: id })
          .orderBy('comparison_position')
          .select('id', 'status', 'reserved_credits', 'charged_credits', 'refunded_credits');
        const verdict = comparisonVerdict(children.map((c) => c.status));
        if (!verdict) return 'open';
        await trx('comparisons').where({ id }).update({ status: verdict, finished_at: trx.fn.now() });
        const event = comparisonCompletedEvent({ id, modality: comparison.modality, status: verdict, totals: totalsOf(children), generationIds: children.map((c) => c.id) });
        await trx('events')
          .insert({
            id: newId('evt'),
            organization_id: comparison.organization_id,
            environment: comparison.environment,
            subject_id: id,
            type: event.type,
            data: JSON.stringify(event.data),
          })
          .onConflict(['type', 'subject_id'])
          .ignore();
        return verdict;
      });
    },

    /** Open comparisons at least `minAgeMs` old, oldest first: the reconciler's candidates. */
    async listOpen(args: { limit: number; minAgeMs: number }, trx: Db = knex): Promise<string[]> {
      const rows: { id: string }[] = await trx('comparisons')
        .select('id')
        .where({ status: 'open' })
        .where('created_at', '<=', new Date(Date.now() - args.minAgeMs))
        .orderBy('created_at')
        .limit(args.limit);
      return rows.map((r) => r.id);
    },
  };
}

/** The comparison's totals: what its children reserved, were charged and got back. */
export function totalsOf(children: Pick<GenerationRow, 'reserved_credits' | 'charged_credits' | 'refunded_credits'>[]): ComparisonTotals {
  const sum = (pick: (c: (typeof children)[number]) => number) => children.reduce((total, c) => total + Number(pick(c)), 0);
  return {
    reserved_credits: sum((c) => c.reserved_credits),
    charged_credits: sum((c) => c.charged_credits),
    refunded_credits: sum((c) => c.refunded_credits),
  };
}

export type ComparisonsRepo = ReturnType<typeof createComparisonsRepo>;
