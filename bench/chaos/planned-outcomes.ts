import type { Knex } from 'knex';
import { requestJson } from '../lib/http-client';
import type { ComparisonRow } from './comparison-checks';
import type { PlannedComparison } from './comparison-workload';
import { earlierAttemptMayHaveLanded, type CancelResult, type Submitted, type SubmittedGeneration } from './workload';

// What the directives planned, against how things ended as the API tells them: a `#fail`
// generation ends failed and uncharged, a `#slow` or plain one succeeded and charged, whatever the
// faults did in between; a comparison nobody cancelled gets its planned verdict, each child the
// outcome its `#fail:<slug>` asks for. A cancel is the only thing that may end one otherwise
// (canceled, uncharged). And the money the API reports is the ledger's: Σ charged_credits the API
// returns for the organization's generations equals Σ captured in ledger_entries.

export interface ApiView {
  status: string;
  error_code: string | null;
  charged_credits: number;
}

/** GET /v1/generations/{id} for each id, 8 at a time; an id the API does not answer 200 for is missing from the map and named in `errors`. */
export async function fetchApiViews(apiUrl: string, key: string, ids: string[]): Promise<{ views: Map<string, ApiView>; errors: string[] }> {
  const views = new Map<string, ApiView>();
  const errors: string[] = [];
  const queue = [...ids];
  const lane = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      const res = await requestJson('GET', `${apiUrl}/v1/generations/${id}`, { Authorization: `Bearer ${key}` }, undefined, { timeoutMs: 15_000 }).catch((err: Error) => ({
        status: 0,
        body: err.message,
      }));
      if (res.status !== 200) {
        errors.push(`GET /v1/generations/${id} answered ${res.status || 'nothing'}: ${res.body.slice(0, 200)}`);
        continue;
      }
      const body = JSON.parse(res.body) as { status: string; error_code?: string | null; charged_credits: number };
      views.set(id, { status: body.status, error_code: body.error_code ?? null, charged_credits: Number(body.charged_credits) });
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  return { views, errors };
}

/** One ended generation against its plan: `fails` → failed and uncharged, otherwise succeeded and charged; canceled only if a cancel was sent. */
function against(where: string, view: ApiView | undefined, fails: boolean, cancelSent: boolean): string[] {
  if (!view) return [`${where}: the API gave no view of it`];
  const ended = `${view.status}${view.error_code ? ` ${view.error_code}` : ''}, charged ${view.charged_credits}`;
  if (view.status === 'canceled') {
    const out = cancelSent ? [] : [`${where}: ended canceled (${ended}) though nobody cancelled it`];
    return view.charged_credits === 0 ? out : [...out, `${where}: canceled yet charged ${view.charged_credits}`];
  }
  const planned = fails ? 'failed' : 'succeeded';
  if (view.status !== planned) return [`${where}: planned ${planned}, ended ${ended}`];
  if (fails && view.charged_credits !== 0) return [`${where}: failed as planned, yet charged ${view.charged_credits}`];
  if (!fails && !(view.charged_credits > 0)) return [`${where}: succeeded as planned, yet charged ${view.charged_credits}`];
  return [];
}

export function plannedOutcomeViolations(args: {
  views: Map<string, ApiView>;
  generations: SubmittedGeneration[];
  /** Generations with no directive that nobody cancels (the probes' images, the upscale input): succeeded and charged. */
  plain: string[];
  cancels: CancelResult[];
  comparisons: Submitted<PlannedComparison>[];
  comparisonRows: ComparisonRow[];
  comparisonCancels: CancelResult[];
}): string[] {
  const violations: string[] = [];
  const cancelled = new Set(args.cancels.map((c) => c.id));
  for (const g of args.generations) violations.push(...against(`${g.id} (${g.modality}${g.fails ? ', #fail' : ''})`, args.views.get(g.id), g.fails, cancelled.has(g.id)));
  for (const id of args.plain) violations.push(...against(`${id} (plain)`, args.views.get(id), false, false));

  const rows = new Map(args.comparisonRows.map((r) => [r.id, r]));
  const comparisonCancels = new Map(args.comparisonCancels.map((c) => [c.id, c]));
  for (const c of args.comparisons) {
    const row = rows.get(c.id);
    if (!row) continue; // checkComparisons names it
    const cancel = comparisonCancels.get(c.id);
    for (const child of row.children) {
      const fails = c.failing.includes(child.model);
      violations.push(...against(`comparison ${c.id} child ${child.id} (${child.model}${fails ? ', #fail' : ''})`, args.views.get(child.id), fails, cancel !== undefined));
    }
    // A cancel that found it finished (409) changed nothing: the planned verdict stands, unless an
    // earlier attempt of it may have landed (its answer a 5xx or lost to an API kill).
    const verdictStands = cancel === undefined || (cancel.finalStatus === 409 && !earlierAttemptMayHaveLanded(cancel));
    if (verdictStands && row.status !== c.planned) violations.push(`comparison ${c.id} (${c.modality}): planned ${c.planned}, ended ${row.status}`);
  }
  return violations;
}

/** Σ charged_credits the API returned against Σ captured in the ledger, and every generation where they differ. */
export async function chargedAgainstLedger(knex: Knex, organizationId: string, views: Map<string, ApiView>) {
  const rows: { generation_id: string; charged: string }[] = await knex('ledger_entries')
    .where({ organization_id: organizationId, kind: 'capture' })
    .groupBy('generation_id')
    .select('generation_id', knex.raw('-sum(reserved_delta) AS charged'));
  const ledger = new Map(rows.map((r) => [r.generation_id, Number(r.charged)]));
  const ledgerTotal = [...ledger.values()].reduce((s, n) => s + n, 0);
  const apiTotal = [...views.values()].reduce((s, v) => s + v.charged_credits, 0);
  const differing = [...new Set([...ledger.keys(), ...views.keys()])].filter((id) => (ledger.get(id) ?? 0) !== (views.get(id)?.charged_credits ?? 0));
  const violations =
    ledgerTotal === apiTotal && differing.length === 0
      ? []
      : [
          `Σ charged in the ledger ${ledgerTotal}, Σ charged_credits the API returned ${apiTotal}; they differ for ${differing.length} generations` +
            (differing.length > 0
              ? ` (${differing
                  .slice(0, 5)
                  .map((id) => `${id}: ledger ${ledger.get(id) ?? 0}, API ${views.get(id)?.charged_credits ?? 'no view'}`)
                  .join('; ')})`
              : ''),
        ];
  return { ledgerTotal, apiTotal, violations };
}
