import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { requestJson } from '../lib/http-client';
import { earlierAttemptMayHaveLanded, TERMINAL, type CancelResult, type SubmittedGeneration } from './workload';

// What must hold once the faults are over, observed from outside: through the database and the
// HTTP API, never through the service's internals.

export interface GenerationRow {
  id: string;
  modality: string;
  status: string;
  error_code: string | null;
  reserved_credits: string;
}

const isTerminal = (status: string) => (TERMINAL as readonly string[]).includes(status);

export async function loadGenerations(knex: Knex, organizationId: string): Promise<GenerationRow[]> {
  return knex('generations').where({ organization_id: organizationId }).select('id', 'modality', 'status', 'error_code', 'reserved_credits');
}

/** Polls until every generation of the organization is terminal or `deadlineMs` has passed; answers how many are not. */
export async function waitUntilTerminal(knex: Knex, organizationId: string, deadlineMs: number, say: (line: string) => void): Promise<number> {
  const started = Date.now();
  let lastSaid = 0;
  for (;;) {
    const open = await knex('generations')
      .where({ organization_id: organizationId })
      .whereNotIn('status', TERMINAL)
      .select('status')
      .then(
        (rows: { status: string }[]) => rows.length,
        () => Number.NaN,
      );
    if (open === 0) return 0;
    if (Date.now() - started > deadlineMs) return open;
    if (Date.now() - lastSaid > 15_000) {
      say(`waiting for ${open} generations to end (${Math.round((Date.now() - started) / 1000)} s of at most ${deadlineMs / 1000} s)`);
      lastSaid = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** The workflow's status and its last history events, to say why a generation is stuck. */
export async function describeWorkflow(temporal: Client, id: string): Promise<string> {
  try {
    const handle = temporal.workflow.getHandle(id);
    const description = await handle.describe();
    const history = await handle.fetchHistory();
    const last = (history.events ?? []).slice(-6).map((e) => String(e.eventType ?? '').replace('EVENT_TYPE_', ''));
    return `workflow ${description.status.name}, last events ${last.join(' > ')}`;
  } catch (err) {
    return `workflow not readable: ${(err as Error).message.slice(0, 200)}`;
  }
}

async function groupBySubject(knex: Knex, table: 'ledger_entries' | 'events', column: string, organizationId: string) {
  const subject = table === 'ledger_entries' ? 'generation_id' : 'subject_id';
  const rows: { subject: string; values: string[] }[] = await knex(table)
    .where({ organization_id: organizationId })
    .whereNotNull(subject)
    .groupBy(subject)
    .select({ subject }, knex.raw(`array_agg(${column} ORDER BY ${column}) AS values`));
  return new Map(rows.map((r) => [r.subject, r.values]));
}

/**
 * Exactly one terminal state per generation: terminal in the database, one ledger outcome that
 * matches it (capture for succeeded, refund otherwise), one matching event, and every answer the
 * API gave about it (creation, cancel, a final GET) agreeing with what the database recorded.
 */
export async function checkOutcomes(opts: {
  knex: Knex;
  temporal: Client;
  apiUrl: string;
  key: string;
  organizationId: string;
  submitted: SubmittedGeneration[];
  probeIds: string[];
  cancels: CancelResult[];
}): Promise<{ violations: string[]; rows: GenerationRow[] }> {
  const { knex, organizationId } = opts;
  const violations: string[] = [];
  const rows = await loadGenerations(knex, organizationId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ledger = await groupBySubject(knex, 'ledger_entries', 'kind', organizationId);
  const events = await groupBySubject(knex, 'events', 'type', organizationId);

  for (const id of [...opts.submitted.map((s) => s.id), ...opts.probeIds]) {
    if (!byId.has(id)) violations.push(`${id}: the API accepted it, but there is no generation row`);
  }
  for (const row of rows) {
    const where = `${row.id} (${row.modality}, ${row.status}${row.error_code ? `, ${row.error_code}` : ''})`;
    if (!isTerminal(row.status)) {
      violations.push(`${where}: not terminal; ${await describeWorkflow(opts.temporal, row.id)}`);
      continue;
    }
    const kinds = ledger.get(row.id) ?? [];
    const outcome = kinds.filter((k) => k === 'capture' || k === 'refund');
    const expected = row.status === 'succeeded' ? 'capture' : 'refund';
    if (Number(row.reserved_credits) > 0 && (outcome.length !== 1 || outcome[0] !== expected)) {
      violations.push(`${where}: ledger rows [${kinds.join(', ')}], expected one ${expected}`);
    }
    const types = events.get(row.id) ?? [];
    const event = row.status === 'succeeded' ? ['generation.completed'] : row.status === 'failed' ? ['generation.failed'] : [];
    if (types.join() !== event.join()) violations.push(`${where}: events [${types.join(', ')}], expected [${event.join(', ')}]`);
  }

  for (const gen of opts.submitted) {
    const final = byId.get(gen.id)?.status;
    if (isTerminal(gen.answeredStatus) && gen.answeredStatus !== final) {
      violations.push(`${gen.id} (${gen.modality}): created as ${gen.answeredStatus}, ended as ${final}`);
    }
    const res = await requestJson('GET', `${opts.apiUrl}/v1/generations/${gen.id}`, { Authorization: `Bearer ${opts.key}` }, undefined, { timeoutMs: 15_000 });
    const seen = res.status === 200 ? (JSON.parse(res.body) as { status: string }).status : `HTTP ${res.status}`;
    if (seen !== final) violations.push(`${gen.id} (${gen.modality}): GET answers ${seen}, the database says ${final}`);
  }
  for (const cancel of opts.cancels) {
    const final = byId.get(cancel.id)?.status;
    if (cancel.finalStatus === 200 && final !== 'canceled') violations.push(`${cancel.id}: cancel answered 200, ended as ${final}`);
    // A 409 for a canceled generation is right only when an earlier attempt of the same cancel got
    // a 5xx after it may have reached the workflow: the retry then finds it canceled, a terminal
    // state, which decisions §5 answers with 409 generation_not_cancelable.
    // So does an attempt an API kill left unanswered.
    const earlierMayHaveLanded = earlierAttemptMayHaveLanded(cancel);
    if (cancel.finalStatus === 409 && final === 'canceled' && !earlierMayHaveLanded) {
      violations.push(`${cancel.id}: cancel answered 409, ended canceled`);
    }
    if (cancel.finalStatus === 0) violations.push(`${cancel.id}: cancel never got an answer other than 5xx or none (${cancel.attempts.length} attempts)`);
  }
  return { violations, rows };
}
