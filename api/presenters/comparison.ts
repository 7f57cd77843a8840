import type { ComparisonChild, ComparisonRow } from '../../db/repos/comparisons';
import { totalsOf } from '../../db/repos/comparisons';
import { openComparisonStatus } from '../../domain/comparison-status';
import { isTerminal } from '../../domain/generation-status';
import { presentOutput, type FileUrlSigner } from './generation';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The wire shape of a Comparison (spec §2) with its children (Comparison child) and, beyond the
 * spec's fields, its modality and totals. `asAccepted` describes it as a 202 does (decisions §5):
 * `queued`, as are its children that are not finished yet.
 */
export async function presentComparison(found: { comparison: ComparisonRow; children: ComparisonChild[] }, files: FileUrlSigner, opts: { asAccepted?: boolean } = {}) {
  const { comparison, children } = found;
  const open = comparison.status === 'open';
  const totals = totalsOf(children.map((c) => c.generation));
  return {
    id: comparison.id,
    object: 'comparison' as const,
    status: !open ? comparison.status : opts.asAccepted ? 'queued' : openComparisonStatus(children.map((c) => c.generation.status)),
    modality: comparison.modality,
    prompt: comparison.prompt,
    params_shared: comparison.params_shared,
    models: children.map((c) => c.generation.model),
    reserved_credits: comparison.reserved_credits,
    charged_credits: totals.charged_credits,
    refunded_credits: totals.refunded_credits,
    deadline_at: iso(comparison.deadline_at ?? null),
    created_at: comparison.created_at.toISOString(),
    finished_at: iso(comparison.finished_at),
    generations: await Promise.all(
      children.map(async ({ generation: gen, outputs }) => ({
        id: gen.id,
        model: gen.model,
        status: opts.asAccepted && !isTerminal(gen.status) ? 'queued' : gen.status,
        charged_credits: gen.charged_credits,
        refunded_credits: gen.refunded_credits,
        error_code: gen.error_code,
        ...(gen.status === 'failed' && { error_message: gen.error_message }),
        outputs: await Promise.all(outputs.map((o) => presentOutput(o, files, gen.outputs_expire_at ?? null))),
        ...(gen.output_text !== null && gen.output_text !== undefined && { text: gen.output_text }),
        ...(gen.usage && { usage: gen.usage }),
      })),
    ),
  };
}
