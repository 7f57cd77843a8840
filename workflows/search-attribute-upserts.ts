import { patched, upsertSearchAttributes } from '@temporalio/workflow';
import { providerUpdate, statusUpdate } from '../domain/search-attributes';

// What a generation or comparison workflow tells Temporal's visibility as it moves: its status and
// the provider of the route it runs (domain/search-attributes.ts). Each upsert is a command in the
// history, so it comes with `search-attributes` (docs/testing.md, the patch ledger): a workflow
// started before it replays without them, and so does a comparison's child start, whose options
// (attributes, memo, summary) are recorded in the parent's history.

const PATCH = 'search-attributes';

/** Whether this run sets search attributes (a run started before the patch does not while it replays). */
export function setsSearchAttributes(): boolean {
  return patched(PATCH);
}

/** The job's status moved; null removes it (a request refused admission never became a job). */
export function upsertStatus(status: string | null): void {
  if (setsSearchAttributes()) upsertSearchAttributes([statusUpdate(status)]);
}

/** A route of the job starts on this provider: running, there. */
export function upsertRunningOn(provider: string | undefined): void {
  if (!setsSearchAttributes()) return;
  upsertSearchAttributes(provider === undefined ? [statusUpdate('running')] : [statusUpdate('running'), providerUpdate(provider)]);
}
