import assert from 'node:assert/strict';
import { createSimulator } from '../../activities/providers/simulator';
import type { ProviderAdapter } from '../../activities/providers/types';
import { call, waitFor, type TestOrganization } from './http';
import { startExtraApi, stack } from './stack';
import { startTestWorker } from './test-worker';

// What the comparison tests (test/api/comparisons*.test.ts) share: waiting for a verdict, what an
// organization has recorded, an uploaded input image, and a worker on which chosen models are slow.

/** Polls GET /v1/comparisons/{id} until the comparison has its verdict (finished_at set). */
export async function waitForComparison(id: string, key: string, timeoutMs = 60_000, baseUrl?: string) {
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/comparisons/${id}`, { key, ...(baseUrl && { baseUrl }) });
      return res.body?.finished_at ? res.body : undefined;
    },
    timeoutMs,
    `comparison ${id} to finish`,
  );
}

/** Polls until the comparison's children are running (none is still queued), and returns it. */
export async function waitForRunning(id: string, key: string, baseUrl?: string) {
  return waitFor(
    async () => {
      const res = await call('GET', `/v1/comparisons/${id}`, { key, ...(baseUrl && { baseUrl }) });
      return res.body?.generations?.every((g: { status: string }) => g.status !== 'queued') ? res.body : undefined;
    },
    20_000,
    `the children of ${id} to leave the queue`,
  );
}

/** Everything an organization has recorded: comparisons, generations and ledger rows (kinds). */
export async function recordsOf(organizationId: string) {
  const { knex } = stack();
  return {
    comparisons: await knex('comparisons').where({ organization_id: organizationId }).pluck('id'),
    generations: await knex('generations').where({ organization_id: organizationId }).pluck('id'),
    ledger: await knex('ledger_entries').where({ organization_id: organizationId }).orderBy('id').pluck('kind'),
  };
}

/**
 * A refused request left no trace: no comparison, no generation, no ledger row beyond the top-up,
 * and the wallet as GET /v1/balance showed it before.
 */
export async function assertNothingRecorded(org: TestOrganization, credits: number): Promise<void> {
  assert.deepEqual(await recordsOf(org.id), { comparisons: [], generations: [], ledger: credits > 0 ? ['topup'] : [] });
  const balance = await call('GET', '/v1/balance', { key: org.liveKey });
  assert.deepEqual([balance.body.available_credits, balance.body.reserved_credits], [credits, 0]);
}

/**
 * The simulator, except that the models named take `slowMs` however the prompt reads. `#slow:` in
 * a prompt slows every model of a comparison alike; this lets one child finish while another runs.
 */
function simulatorWithSlowModels(slowSlugs: readonly string[], slowMs: number): ProviderAdapter {
  const simulator = createSimulator({ asyncLatencyMs: 300 });
  return {
    ...simulator,
    submit: (job, ctx) => simulator.submit(slowSlugs.includes(job.model.slug) ? { ...job, prompt: `${job.prompt} #slow:${slowMs}` } : job, ctx),
  };
}

/**
 * An API and a worker of the test's own, on their own task queue, whose simulator keeps the models
 * named running for ten minutes (until cancelled). Requests go through the production path: the
 * API's routes, the comparison and generation workflows, the ledger.
 */
export async function startStackWithSlowModels(slowSlugs: readonly string[]): Promise<{ apiUrl: string; stop(): Promise<void> }> {
  const taskQueue = `slow-models-${Math.random().toString(36).slice(2)}`;
  const worker = await startTestWorker(taskQueue, { provider: simulatorWithSlowModels(slowSlugs, 600_000) });
  const api = await startExtraApi({ taskQueue });
  return {
    apiUrl: api.url,
    async stop() {
      await api.close();
      await worker.stop();
    },
  };
}
