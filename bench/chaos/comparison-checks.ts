import { readFile } from 'node:fs/promises';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { comparisonVerdict } from '../../domain/comparison-status';
import type { GenerationStatus } from '../../domain/generation-status';
import { requestJson } from '../lib/http-client';
import { describeWorkflow } from './checks';
import type { PlannedComparison } from './comparison-workload';
import type { CancelResult, Submitted } from './workload';

// What must hold for comparisons once the faults are over, observed from outside (the database,
// the HTTP API, Temporal's record of the workflows, the worker's log): every comparison has its
// verdict, the one its children give, with a finished_at and exactly one `comparison.completed`
// event that says the same; its reservation is the sum of its children's; every answer the API gave
// about it agrees with what the database recorded. (The children's own money is checked with every
// other generation's: test/helpers/money-invariants.ts.)

interface Child {
  id: string;
  model: string;
  status: GenerationStatus;
  error_code: string | null;
  reserved: number;
  charged: number;
  refunded: number;
}

export interface ComparisonRow {
  id: string;
  modality: string;
  status: string;
  reserved: number;
  finishedAt: Date | null;
  children: Child[];
  /** The data of each of its `comparison.completed` events. */
  events: Record<string, unknown>[];
}

export interface ComparisonFigures {
  rows: ComparisonRow[];
  submitted: Submitted<PlannedComparison>[];
  cancels: CancelResult[];
  notFinished: number;
  drainedMs: number;
  /** Comparison workflows by their status in Temporal (COMPLETED, TERMINATED, …). */
  workflows: Map<string, number>;
  /** Comparisons whose verdict the reconciler recorded (its log line in the worker's log). */
  reconciled: string[];
  /** Comparisons whose workflow the run terminated. */
  terminated: string[];
}

export async function loadComparisons(knex: Knex, organizationId: string): Promise<ComparisonRow[]> {
  const rows: {
    id: string;
    modality: string;
    status: string;
    reserved_credits: string;
    finished_at: Date | null;
    children: (Omit<Child, 'reserved' | 'charged' | 'refunded'> & Record<'reserved' | 'charged' | 'refunded', string>)[] | null;
    events: Record<string, unknown>[];
  }[] = await knex('comparisons as c')
    .where('c.organization_id', organizationId)
    .orderBy('c.created_at')
    .select(
      'c.id',
      'c.modality',
      'c.status',
      'c.reserved_credits',
      'c.finished_at',
      knex.raw(`(SELECT json_agg(json_build_object('id', g.id, 'model', g.model, 'status', g.status, 'error_code', g.error_code, 'reserved', g.reserved_credits,
                   'charged', g.charged_credits, 'refunded', g.refunded_credits) ORDER BY g.comparison_position)
                   FROM generations g WHERE g.comparison_id = c.id) AS children`),
      knex.raw(`(SELECT coalesce(json_agg(e.data ORDER BY e.created_at), '[]'::json) FROM events e
                   WHERE e.subject_id = c.id AND e.type = 'comparison.completed') AS events`),
    );
  return rows.map((r) => ({
    id: r.id,
    modality: r.modality,
    status: r.status,
    reserved: Number(r.reserved_credits),
    finishedAt: r.finished_at,
    children: (r.children ?? []).map((c) => ({ ...c, reserved: Number(c.reserved), charged: Number(c.charged), refunded: Number(c.refunded) })),
    events: r.events,
  }));
}

/** Polls until no comparison of the organization is open or `deadlineMs` has passed; answers how many are. */
export async function waitUntilFinished(knex: Knex, organizationId: string, deadlineMs: number, say: (line: string) => void): Promise<number> {
  const started = Date.now();
  let lastSaid = 0;
  for (;;) {
    const open = await knex('comparisons')
      .where({ organization_id: organizationId, status: 'open' })
      .count<{ n: string }[]>({ n: '*' })
      .then(
        (rows) => Number(rows[0]?.n),
        () => Number.NaN,
      );
    if (open === 0) return 0;
    if (Date.now() - started > deadlineMs) return open;
    if (Date.now() - lastSaid > 15_000) {
      say(`waiting for ${open} comparisons to get their verdict (${Math.round((Date.now() - started) / 1000)} s of at most ${deadlineMs / 1000} s)`);
      lastSaid = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

const sum = (children: Child[], pick: (c: Child) => number) => children.reduce((total, c) => total + pick(c), 0);

/** What the database holds for one comparison, against the rules above. */
async function rowViolations(row: ComparisonRow, temporal: Client): Promise<string[]> {
  const where = `${row.id} (${row.modality} comparison, ${row.status})`;
  const children = row.children.map((c) => `${c.id} ${c.status}${c.error_code ? ` ${c.error_code}` : ''}`).join(', ');
  const violations: string[] = [];
  if (row.children.length < 2) violations.push(`${where}: ${row.children.length} children`);
  const reservedByChildren = sum(row.children, (c) => c.reserved);
  if (row.reserved !== reservedByChildren) violations.push(`${where}: reserved ${row.reserved}, its children ${reservedByChildren}`);
  if (row.status === 'open') {
    violations.push(`${where}: no verdict by the end of the drain; children [${children}]; ${await describeWorkflow(temporal, row.id)}`);
    if (row.events.length > 0) violations.push(`${where}: open, yet ${row.events.length} comparison.completed events`);
    return violations;
  }
  const verdict = comparisonVerdict(row.children.map((c) => c.status));
  if (verdict !== row.status) violations.push(`${where}: its children [${children}] give ${verdict ?? 'no verdict (not all terminal)'}`);
  if (!row.finishedAt) violations.push(`${where}: a verdict without finished_at`);
  if (row.events.length !== 1) violations.push(`${where}: ${row.events.length} comparison.completed events, expected exactly one`);
  const data = row.events[0];
  if (data) {
    const expected = {
      comparison_id: row.id,
      status: row.status,
      modality: row.modality,
      reserved_credits: row.reserved,
      charged_credits: sum(row.children, (c) => c.charged),
      refunded_credits: sum(row.children, (c) => c.refunded),
      generation_ids: row.children.map((c) => c.id),
    };
    const differ = Object.entries(expected).filter(([field, value]) => JSON.stringify(data[field]) !== JSON.stringify(value));
    if (differ.length > 0) {
      violations.push(
        `${where}: its comparison.completed event says ${differ.map(([f]) => `${f} ${JSON.stringify(data[f])}`).join(', ')}; the rows say ${differ.map(([f, v]) => `${f} ${JSON.stringify(v)}`).join(', ')}`,
      );
    }
  }
  return violations;
}

/** Every answer the API gave about a comparison (its creation, its cancel, a GET now) against the database. */
async function answerViolations(opts: { apiUrl: string; key: string; submitted: Submitted<PlannedComparison>[]; cancels: CancelResult[] }, byId: Map<string, ComparisonRow>) {
  const violations: string[] = [];
  const auth = { Authorization: `Bearer ${opts.key}` };
  for (const c of opts.submitted) {
    const row = byId.get(c.id);
    if (!row) {
      violations.push(`${c.id}: the API accepted the comparison, but there is no comparison row`);
      continue;
    }
    if (c.answeredStatus !== 'queued') violations.push(`${c.id}: created as ${c.answeredStatus}, expected queued`);
    const res = await requestJson('GET', `${opts.apiUrl}/v1/comparisons/${c.id}`, auth, undefined, { timeoutMs: 15_000 });
    if (res.status !== 200) {
      violations.push(`${c.id}: GET answers HTTP ${res.status}`);
      continue;
    }
    const seen = JSON.parse(res.body) as { status: string; generations: { id: string; status: string }[] };
    if (seen.status !== row.status && !(row.status === 'open' && ['queued', 'running'].includes(seen.status))) {
      violations.push(`${c.id}: GET answers ${seen.status}, the database says ${row.status}`);
    }
    const childSeen = seen.generations.map((g) => `${g.id} ${g.status}`).join(', ');
    const childRows = row.children.map((g) => `${g.id} ${g.status}`).join(', ');
    if (childSeen !== childRows) violations.push(`${c.id}: GET shows children [${childSeen}], the database [${childRows}]`);
  }
  for (const cancel of opts.cancels) {
    const final = byId.get(cancel.id)?.status;
    const answered = cancel.attempts[cancel.attempts.length - 1];
    if (cancel.finalStatus === 200 && cancel.finalGenerationStatus !== final) {
      violations.push(`${cancel.id}: cancel answered 200 with ${cancel.finalGenerationStatus}, the comparison ended ${final}`);
    }
    if (cancel.finalStatus === 409 && (answered?.code !== 'comparison_not_cancelable' || final === 'open')) {
      violations.push(`${cancel.id}: cancel answered 409 ${answered?.code}, the comparison is ${final}`);
    }
    if (cancel.finalStatus === 0) violations.push(`${cancel.id}: cancel never got an answer other than 5xx or none (${cancel.attempts.length} attempts)`);
  }
  return violations;
}

/** The comparison workflows by their Temporal status. */
async function workflowStatuses(temporal: Client, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const status = await temporal.workflow
      .getHandle(id)
      .describe()
      .then(
        (d) => d.status.name,
        () => 'MISSING',
      );
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return counts;
}

/** The comparisons named by the reconciler's "recorded the verdict" lines in the worker's log. */
async function reconciledComparisons(workerLog: string): Promise<string[]> {
  const log = await readFile(workerLog, 'utf8').catch(() => '');
  const ids = log
    .split('\n')
    .filter((line) => line.includes('recorded the verdict of a comparison'))
    .flatMap((line) => /cmp_[A-Za-z0-9_-]+/.exec(line)?.[0] ?? []);
  return [...new Set(ids)];
}

export async function checkComparisons(opts: {
  knex: Knex;
  temporal: Client;
  apiUrl: string;
  key: string;
  organizationId: string;
  submitted: Submitted<PlannedComparison>[];
  cancels: CancelResult[];
  workerLog: string;
}): Promise<{ violations: string[]; rows: ComparisonRow[]; workflows: Map<string, number>; reconciled: string[] }> {
  const rows = await loadComparisons(opts.knex, opts.organizationId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const violations: string[] = [];
  for (const row of rows) violations.push(...(await rowViolations(row, opts.temporal)));
  violations.push(...(await answerViolations(opts, byId)));
  return {
    violations,
    rows,
    workflows: await workflowStatuses(
      opts.temporal,
      rows.map((r) => r.id),
    ),
    reconciled: await reconciledComparisons(opts.workerLog),
  };
}
