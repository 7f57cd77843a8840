import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Repos } from '../db/repos';
import type { GenerationRow } from '../db/repos/generations';
import type { ProviderRoute } from '../domain/providers';
import { findModel } from '../domain/catalog';
import { describeError } from '../lib/logger';
import { providerIdempotencyKey } from './generations/provider-job';
import type { ProviderRegistry } from './providers/registry';
import { metrics } from '../observability/metrics';

// The reconciler's steps (workflows/reconciler.ts). A generation whose workflow closed without
// settling it (terminated from the UI, timed out, failed on a bug) still holds its reservation:
// these steps find such generations and refund them as `failed` / `reconciled`, with the event.

const DESCRIBE_CONCURRENCY = 8;
const RUNNING_GENERATIONS_QUERY = `ExecutionStatus = 'Running' AND (WorkflowType = 'generationWorkflow' OR WorkflowType = 'comparisonWorkflow')`;
/** Open generations read per statement while the reconciler walks them all. */
const DEFAULT_PAGE_SIZE = 500;
/** Admission claims outlive their deadline by a day: long enough for any API still waiting. */
const CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;

export const RECONCILED_ERROR = {
  errorCode: 'reconciled',
  errorMessage: 'The generation was interrupted and never finished; its credits were refunded.',
  // Ours (a workflow terminated or timed out), and the same request may well succeed when sent again.
  errorSource: 'gateway' as const,
  retryable: true,
};

export function createReconcilerActivities(deps: {
  repos: Repos;
  providers: ProviderRegistry;
  temporal?: Client;
  refund: (args: { generationId: string; status: 'failed'; errorCode: string; errorMessage: string }) => Promise<void>;
  /** Open generations read per page (DEFAULT_PAGE_SIZE); tests make it small. */
  reconcilerPageSize?: number;
}) {
  const { repos } = deps;

  /** The workflow's status, or 'MISSING' when Temporal has no record of it. */
  async function workflowStatus(generationId: string): Promise<string> {
    if (!deps.temporal) throw new Error('the reconciler needs a Temporal client');
    try {
      return (await deps.temporal.workflow.getHandle(generationId).describe()).status.name;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'MISSING';
      throw err;
    }
  }

  /**
   * A generation's workflow status, except that a comparison's child whose own workflow is not
   * running yet counts as RUNNING while its comparison's workflow runs: that workflow starts it, or
   * refunds it if it never does.
   */
  async function strandedStatus(generationId: string, comparisonId: string | null | undefined): Promise<string> {
    const own = await workflowStatus(generationId);
    if (own === 'RUNNING' || !comparisonId) return own;
    return (await workflowStatus(comparisonId)) === 'RUNNING' ? 'RUNNING' : own;
  }

  /**
   * The ids of every generation and comparison workflow Temporal lists as running, in one listing
   * (its visibility store): a generation whose workflow (or comparison's) is among them is skipped
   * without a describe of its own. The listing may lag a moment behind: a workflow that just
   * closed is still there (its generation waits for the next run), one that just started may be
   * missing (its describe says RUNNING).
   */
  async function runningWorkflowIds(): Promise<Set<string>> {
    if (!deps.temporal) throw new Error('the reconciler needs a Temporal client');
    const ids = new Set<string>();
    for await (const execution of deps.temporal.workflow.list({ query: RUNNING_GENERATIONS_QUERY })) {
      ids.add(execution.workflowId);
      if (ids.size % 1000 === 0) Context.current().heartbeat(ids.size);
    }
    return ids;
  }

  return {
    /**
     * Non-terminal generations at least `minAgeMs` old whose workflow is closed or missing, oldest
     * first, at most `limit` of them. Every open generation is looked at, page by page (a cursor,
     * not the oldest `limit`), so a thousand long jobs running cannot hide a newer stranded one. Only
     * those whose workflow (or comparison's workflow) is not in the running list are described, to
     * confirm. (A generation row is written by its own workflow's admission, so a row never exists
     * before its workflow; the age only keeps runs away from work in progress.)
     */
    async findStrandedGenerations(args: { limit: number; minAgeMs: number }): Promise<{ id: string; workflowStatus: string }[]> {
      const createdBefore = new Date(Date.now() - args.minAgeMs);
      const pageSize = deps.reconcilerPageSize ?? DEFAULT_PAGE_SIZE;
      const running = await runningWorkflowIds();
      const stranded: { id: string; workflowStatus: string }[] = [];
      let after: string | undefined;
      for (let page = 0; stranded.length < args.limit; page++) {
        Context.current().heartbeat(`page ${page}`);
        const rows = await repos.generations.listOpenPage({ createdBefore, limit: pageSize, after });
        const candidates = rows.filter((r) => !running.has(r.id) && !(r.comparison_id && running.has(r.comparison_id)));
        for (let i = 0; i < candidates.length; i += DESCRIBE_CONCURRENCY) {
          const batch = candidates.slice(i, i + DESCRIBE_CONCURRENCY);
          const statuses = await Promise.all(batch.map((c) => strandedStatus(c.id, c.comparison_id)));
          batch.forEach((c, j) => statuses[j] !== 'RUNNING' && stranded.push({ id: c.id, workflowStatus: statuses[j]! }));
        }
        if (rows.length < pageSize) break;
        after = rows[rows.length - 1]!.id;
      }
      return stranded.slice(0, args.limit);
    },

    /**
     * Refunds one stranded generation, after checking again that its workflow is closed; stops its
     * provider job. Returns whether it repaired anything (a retry, or a generation that finished
     * meanwhile, repairs nothing).
     */
    async settleStrandedGeneration(generationId: string): Promise<boolean> {
      const before = await repos.generations.findById(generationId);
      if (!before || (before.status !== 'queued' && before.status !== 'running')) return false;
      const status = await strandedStatus(generationId, before.comparison_id);
      if (status === 'RUNNING') return false;
      if (before.provider_job_id) await cancelProviderJob(deps.providers, before);
      await deps.refund({ generationId, status: 'failed', ...RECONCILED_ERROR });
      const after = await repos.generations.findById(generationId);
      const repaired = after?.status === 'failed' && after.error_code === RECONCILED_ERROR.errorCode;
      if (repaired) {
        metrics.reconcilerRepairs.inc({ kind: 'stranded_generation' });
        Context.current().log.warn('reconciled a stranded generation', {
          generation_id: generationId,
          organization_id: before.organization_id,
          status_was: before.status,
          workflow_status: status,
          refunded_credits: after.refunded_credits,
        });
      }
      return repaired;
    },

    /** Open comparisons at least `minAgeMs` old whose workflow is closed or missing, oldest first. */
    async findStrandedComparisons(args: { limit: number; minAgeMs: number }): Promise<string[]> {
      const open = await repos.comparisons.listOpen(args);
      const stranded: string[] = [];
      for (let i = 0; i < open.length; i += DESCRIBE_CONCURRENCY) {
        Context.current().heartbeat(i);
        const batch = open.slice(i, i + DESCRIBE_CONCURRENCY);
        const statuses = await Promise.all(batch.map(workflowStatus));
        batch.forEach((id, j) => statuses[j] !== 'RUNNING' && stranded.push(id));
      }
      return stranded;
    },

    /**
     * Records the verdict of a comparison whose workflow died, from its children's states, once they
     * are all terminal (the children themselves are settled by their own workflows or by
     * settleStrandedGeneration). Returns whether it recorded the verdict.
     */
    async settleStrandedComparison(comparisonId: string): Promise<boolean> {
      if ((await workflowStatus(comparisonId)) === 'RUNNING') return false;
      const status = await repos.comparisons.finish(comparisonId);
      if (status === undefined || status === 'open') return false;
      metrics.reconcilerRepairs.inc({ kind: 'stranded_comparison' });
      Context.current().log.warn('recorded the verdict of a comparison whose workflow closed without it', { comparison_id: comparisonId, status });
      return true;
    },

    /** Forgets admission claims whose deadline is long past. */
    async deleteExpiredAdmissionClaims(): Promise<number> {
      return repos.admissionClaims.deleteExpired(new Date(Date.now() - CLAIM_RETENTION_MS));
    },
  };
}

/** Best effort, as in the generation workflow: the refund does not wait on the provider. */
async function cancelProviderJob(providers: ProviderRegistry, gen: GenerationRow): Promise<void> {
  const model = findModel(gen.model);
  if (!model || !gen.provider_job_id) return;
  const providerJobId = gen.provider_job_id;
  await (async () => {
    // The route the job was submitted on and whose key submitted it (recorded with it), else the one
    // a pre-routes workflow used. A job belongs to the account that submitted it: one submitted on
    // the platform's key is cancelled with the platform's, even when the organization has a key of
    // its own by now. (Rows from before the key was recorded fall back to the registry's old rule.)
    const route =
      gen.provider && gen.provider_model
        ? ({ provider: gen.provider, model: gen.provider_model, ...(gen.provider_key_owner && { key: gen.provider_key_owner }) } as ProviderRoute)
        : providers.defaultRoute(model, gen.environment);
    const credentials = await providers.credentialsFor(route, gen.organization_id);
    const job = { generationId: gen.id, model, prompt: gen.prompt, params: gen.params, inputs: {}, idempotencyKey: providerIdempotencyKey(gen.id), route, credentials };
    await providers.adapterFor(route).cancel(job, providerJobId);
  })().catch((err: unknown) => {
    // The refund goes ahead; a job that may still run (and be paid for) is the operator's to stop.
    Context.current().log.warn('could not cancel the provider job of a stranded generation; cancel it at the provider', {
      generation_id: gen.id,
      provider: gen.provider,
      provider_job_id: providerJobId,
      ...describeError(err),
    });
  });
}
