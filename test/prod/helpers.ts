import assert from 'node:assert/strict';
import { getWalletBalance, type WalletBalance } from '../../db/ledger';
import type { ManagedProcess } from '../../embedded/prod-stack';
import { call, waitFor, type HttpResult, type TestOrganization } from '../helpers/http';
import { checkMoneyInvariants } from '../helpers/money-invariants';
import { prodKnex, prodStack, prodTemporal } from './fixture';

// The production topology's counterparts of test/helpers/http.ts and ledger.ts: requests go to the
// round-robin proxy unless a test names one API process, and the money invariants are checked on
// the stack's own database and Temporal server.

type CallOptions = NonNullable<Parameters<typeof call>[2]>;

/** A JSON request to the proxy in front of both APIs, or to `baseUrl` (one API process). */
export function prodCall<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<HttpResult<T>> {
  return call<T>(method, path, { ...opts, baseUrl: opts.baseUrl ?? prodStack().apiUrl });
}

/** A fresh organization through the operator API, as a real operator would make one. */
export async function createProdOrganization(opts: { plan?: string; credits?: number } = {}): Promise<TestOrganization> {
  const res = await prodCall('POST', '/admin/v1/organizations', {
    key: prodStack().config.adminToken,
    body: { name: `Prod test org ${Math.random().toString(36).slice(2, 8)}`, plan: opts.plan ?? 'pro', credits: opts.credits ?? 100_000 },
  });
  if (res.status !== 201) throw new Error(`createProdOrganization: ${res.status} ${JSON.stringify(res.body)}`);
  const keyOf = (env: string) => res.body.api_keys.find((k: { environment: string }) => k.environment === env).secret as string;
  return { id: res.body.id, liveKey: keyOf('live'), testKey: keyOf('test') };
}

/** Polls `GET /v1/generations/{id}` (through the proxy, so both APIs answer) until it is terminal. */
export function waitForProdGeneration(id: string, key: string, timeoutMs = 30_000, baseUrl?: string): Promise<any> {
  return waitFor(
    async () => {
      const res = await prodCall('GET', `/v1/generations/${id}`, { key, ...(baseUrl && { baseUrl }) });
      return ['succeeded', 'failed', 'canceled'].includes(res.body?.status) ? res.body : undefined;
    },
    timeoutMs,
    `generation ${id} to finish`,
  );
}

/** The kinds of a generation's ledger rows, in order. */
export async function prodLedgerKinds(generationId: string): Promise<string[]> {
  const rows: { kind: string }[] = await prodKnex()('ledger_entries').where({ generation_id: generationId }).orderBy('id');
  return rows.map((r) => r.kind);
}

/** The generation ids of an organization, oldest first. */
export async function prodGenerationIds(organizationId: string): Promise<string[]> {
  const rows: { id: string }[] = await prodKnex()('generations').where({ organization_id: organizationId }).orderBy('created_at').select('id');
  return rows.map((r) => r.id);
}

/**
 * The money invariants of one organization (test/helpers/money-invariants.ts) on the production
 * stack: its wallet equals the sum of its ledger, every generation has the ledger rows its status
 * implies, and none is stranded by a closed workflow. Returns the wallet.
 */
export async function assertProdLedgerBalanced(organizationId: string): Promise<WalletBalance> {
  assert.deepEqual(await checkMoneyInvariants(prodKnex(), prodTemporal(), { organizationId }), [], `the money invariants of ${organizationId}`);
  return getWalletBalance(prodKnex(), organizationId);
}

/** The identity a worker process gives Temporal: the SDK's default, `<pid>@<host>`. */
export function workerIdentityPrefix(worker: ManagedProcess): string {
  return `${worker.pid}@`;
}
