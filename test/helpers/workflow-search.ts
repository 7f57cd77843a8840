import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findOrBuildTemporalCli } from '../../embedded/temporal-cli';
import { waitFor } from './http';

// Finding workflows as an operator does (docs/operations.md, "Finding a job in the Temporal UI"):
// `temporal workflow list --query … -o json`, the CLI the project installs, against a stack's
// Temporal server. Visibility is eventually consistent, so a test polls the query until its answer
// is the one it expects, up to a deadline.

const run = promisify(execFile);

export interface ListedWorkflow {
  workflowId: string;
  type: string;
  /** The search attributes, decoded from their JSON payloads. */
  attributes: Record<string, unknown>;
  memo: Record<string, unknown>;
}

/** A payload, as the CLI writes it: a search attribute's in full (base64 JSON), a memo's JSON as it is. */
type Payload = { metadata: Record<string, string>; data?: string } | unknown;

const isEncoded = (payload: Payload): payload is { metadata: Record<string, string>; data?: string } => typeof payload === 'object' && payload !== null && 'metadata' in payload;

const decode = (fields: Record<string, Payload> | undefined): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(fields ?? {}).map(([name, payload]) => [
      name,
      !isEncoded(payload) ? payload : payload.data === undefined ? null : JSON.parse(Buffer.from(payload.data, 'base64').toString('utf8')),
    ]),
  );

/** The workflows the query finds, as the CLI lists them. */
export async function listWorkflows(address: string, query: string): Promise<ListedWorkflow[]> {
  const cli = await findOrBuildTemporalCli(() => {});
  if (!cli) throw new Error('no Temporal CLI: the test stack needs one too');
  const { stdout } = await run(cli, ['workflow', 'list', '--address', address, '--query', query, '-o', 'json']);
  const rows = JSON.parse(stdout.trim() || '[]') as {
    execution: { workflowId: string };
    type: { name: string };
    searchAttributes?: { indexedFields?: Record<string, Payload> };
    memo?: { fields?: Record<string, Payload> };
  }[];
  return rows.map((row) => ({
    workflowId: row.execution.workflowId,
    type: row.type.name,
    attributes: decode(row.searchAttributes?.indexedFields),
    memo: decode(row.memo?.fields),
  }));
}

/** Polls the query until `settled` holds of its answer (visibility lags the workflows), then returns that answer. */
export function waitForWorkflowList(address: string, query: string, settled: (found: ListedWorkflow[]) => boolean, timeoutMs = 30_000): Promise<ListedWorkflow[]> {
  return waitFor(
    async () => {
      const found = await listWorkflows(address, query);
      return settled(found) && found;
    },
    timeoutMs,
    `the workflow list ${query}`,
  );
}
