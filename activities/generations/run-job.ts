// The provider step of today's workflows: one job on one route, from submission (or the job an
// earlier try recorded, resumed) through polling to its stored files, in one activity. Sync
// modalities run it as the local activity `runProvider`, async ones as the heartbeating activity
// `runProviderJob`; a step that runs again resumes the job on the row instead of paying for a second.
import type { Repos } from '../../db/repos';
import type { GenerationInput, ProviderOutcome } from '../../workflows/definitions';
import type { PollHints } from '../poll-hints';
import type { Recorded } from './attempts';
import type { PollUntilDone } from './polling';
import { asTemporalFailure } from './provider-failures';
import { onRoute, type ProviderJobContext } from './provider-job';
import type { StoreOutputs } from './store-outputs';
import type { SubmitJob } from './submit-job';

export function createProviderRunActivities(deps: {
  repos: Pick<Repos, 'generations'>;
  jobs: ProviderJobContext;
  submit: SubmitJob;
  pollUntilDone: PollUntilDone;
  recorded: Recorded;
  storeOutputs: StoreOutputs;
  pollHints?: PollHints;
}) {
  const { repos, jobs, submit, pollUntilDone, recorded, storeOutputs } = deps;

  /**
   * One job on one route: submitted, or, when an earlier run of this step recorded one there (its
   * worker died, a poll failed, a cancel raced it), that job resumed instead of submitting a second
   * paid one; then polled (heartbeating) until done and its files stored. Only a step that finds the
   * row already running reads it: a first run costs no extra statement.
   */
  async function runJobOnRoute(input: GenerationInput, routeIndex: number): Promise<ProviderOutcome> {
    const { job, adapter } = await jobs.jobOf(input, routeIndex);
    return jobs.withProviderContext(job, async (ctx) => {
      // Watched from before the submission: a callback that comes while the job is being recorded
      // still cuts the first wait short.
      const hints = deps.pollHints?.watch(job.generationId);
      try {
        const firstRun = await repos.generations.markRunning(input.generationId, job.route);
        const row = firstRun ? undefined : await repos.generations.findById(input.generationId);
        const resumed = row?.provider_job_id && onRoute(row, job) ? row : undefined;
        // A re-run's call is open from now (a call an earlier try left open is ended), or, resuming a
        // job, from that job's submission.
        if (!firstRun) await repos.generations.openAttempt(input.generationId, job.route, resumed && { since: resumed.provider_job_submitted_at });
        const submitted = resumed
          ? { state: 'pending' as const, providerJobId: resumed.provider_job_id!, submittedAt: resumed.provider_job_submitted_at?.getTime() ?? Date.now() }
          : await submit(input, job, adapter, ctx, routeIndex);
        if (submitted.state === 'done') return submitted.outcome;
        return await recorded(input, job, submitted.submittedAt, async () => storeOutputs(input, job, await pollUntilDone(adapter, job, submitted, ctx, hints)), {
          resumable: true,
        });
      } finally {
        hints?.close();
      }
    });
  }

  return {
    /**
     * Sync modalities: the whole provider call on one route, its files stored. A provider that queues
     * the job (fal, Replicate past its wait) has it recorded on the row as an async job has, so a
     * retry of this local activity resumes it and a fallback or settlement cancels it.
     */
    async runProvider(input: GenerationInput, routeIndex: number): Promise<ProviderOutcome> {
      return asTemporalFailure(() => runJobOnRoute(input, routeIndex), { input, routeIndex });
    },

    /**
     * Async modalities, in one step: hand the job to the route's provider, then poll it (heartbeating)
     * until it is done and store its files.
     */
    async runProviderJob(input: GenerationInput, routeIndex: number): Promise<ProviderOutcome> {
      return asTemporalFailure(() => runJobOnRoute(input, routeIndex), { input, routeIndex });
    },
  };
}
