// The provider activities that only workflows started before two patches still call
// (workflows/generation.ts), kept so that such workflows still in flight can finish:
//
// - `patched('one-provider-activity')`: an async generation ran its provider job as two activities,
//   `submitToProvider` then `awaitProviderJob` (restarted by the workflow when a provider's callback
//   signalled it), and the workflow held the job's id, so a fallback or a settlement stopped it with
//   `cancelProviderJob`. Since the patch one activity does it all (`runProviderJob`, ./run-job.ts)
//   and a recorded job is stopped through the row (`cancelRecordedProviderJob`).
// - `patched('provider-routes')`: the same three, called without a route index (a generation had
//   one route), for async generations started before routes.
//
// They go when those patches are deprecated and no workflow started before them can still be
// running (docs/testing.md, "Changing workflow code"): delete this module, its line in ./index.ts
// and the recorded histories `pre-one-activity-*` and `pre-routes-*` together. Until then their
// names and signatures are fixed: workflows in flight schedule them by name with those arguments
// (test/activities/recorded-activity-names.test.ts checks every name a recorded history schedules).
// (`patched('sync-provider-jobs')` and `patched('fallback-after-stop')` change only the workflow's
// own decisions; no activity serves them alone.)
import type { Repos } from '../../db/repos';
import type { GenerationInput, ProviderOutcome, Submission } from '../../workflows/definitions';
import type { Recorded } from './attempts';
import type { PollUntilDone } from './polling';
import { asTemporalFailure } from './provider-failures';
import { onRoute, type ProviderJobContext } from './provider-job';
import type { StoreOutputs } from './store-outputs';
import type { SubmitJob } from './submit-job';

export function createLegacyProviderActivities(deps: {
  repos: Pick<Repos, 'generations'>;
  jobs: ProviderJobContext;
  submit: SubmitJob;
  pollUntilDone: PollUntilDone;
  recorded: Recorded;
  storeOutputs: StoreOutputs;
}) {
  const { repos, jobs, submit, pollUntilDone, recorded, storeOutputs } = deps;
  return {
    /**
     * Async modalities, step 1 (workflows from before `patched('one-provider-activity')`): hand the job
     * to the route's provider and remember its job id. A re-run first looks for the job it recorded on
     * this route, and otherwise submits with the same idempotency key, so the provider runs it once.
     */
    async submitToProvider(input: GenerationInput, routeIndex?: number): Promise<Submission> {
      return asTemporalFailure(async () => {
        const { job, adapter } = await jobs.jobOf(input, routeIndex);
        return jobs.withProviderContext(job, async (ctx): Promise<Submission> => {
          const row = await repos.generations.findById(input.generationId);
          if (row?.provider_job_id && (routeIndex === undefined || onRoute(row, job))) return { state: 'pending', providerJobId: row.provider_job_id };
          if (!(await repos.generations.markRunning(input.generationId, job.route))) await repos.generations.openAttempt(input.generationId, job.route);
          const submitted = await submit(input, job, adapter, ctx, routeIndex);
          return submitted.state === 'done' ? submitted : { state: 'pending', providerJobId: submitted.providerJobId };
        });
      }, { input, routeIndex });
    },

    /** Async modalities, step 2 (before `patched('one-provider-activity')`): poll until done, then store its files. */
    async awaitProviderJob(input: GenerationInput, providerJobId: string, routeIndex?: number): Promise<ProviderOutcome> {
      return asTemporalFailure(async () => {
        const { job, adapter } = await jobs.jobOf(input, routeIndex);
        const submittedAt = (await repos.generations.findById(input.generationId))?.provider_job_submitted_at;
        return jobs.withProviderContext(job, (ctx) =>
          recorded(input, job, submittedAt?.getTime() ?? Date.now(), async () => storeOutputs(input, job, await pollUntilDone(adapter, job, { providerJobId }, ctx)), {
            resumable: true,
          }),
        );
      }, { input, routeIndex });
    },

    /**
     * A cancelled generation, or a route given up for the next one, in workflows that hold the job's
     * id (from `submitToProvider`): ask the provider to stop (best effort).
     */
    async cancelProviderJob(input: GenerationInput, providerJobId: string, routeIndex?: number): Promise<void> {
      const { job, adapter } = await jobs.jobOf(input, routeIndex);
      await adapter.cancel(job, providerJobId);
      await repos.generations.clearProviderJob(input.generationId, providerJobId);
    },
  };
}
