// Cancellation of recorded jobs: the workflow never holds the id of a job `runProvider` or
// `runProviderJob` queued (it lives on the generation's row), so a fallback to the next route, or a
// settlement, stops that job through the row with this activity.
import type { Repos } from '../../db/repos';
import type { GenerationInput } from '../../workflows/definitions';
import { onRoute, type ProviderJobContext } from './provider-job';

export function createRecordedJobCancellation(deps: { repos: Pick<Repos, 'generations'>; jobs: ProviderJobContext }) {
  const { repos, jobs } = deps;
  return {
    /**
     * Gives a route up: closes it on the row, so that a job still being submitted there cannot be
     * recorded (its submitter cancels it), and asks the provider to stop the job recorded there, if
     * any (best effort). The workflow never holds such a job's id: a fallback or a settlement
     * cancels it from the row.
     */
    async cancelRecordedProviderJob(input: GenerationInput, routeIndex: number): Promise<void> {
      const row = await repos.generations.closeProviderRoutes(input.generationId, routeIndex);
      if (!row?.provider_job_id) return;
      const { job, adapter } = await jobs.jobOf(input, routeIndex);
      if (!onRoute(row, job)) return;
      await adapter.cancel(job, row.provider_job_id);
      await repos.generations.clearProviderJob(input.generationId, row.provider_job_id);
    },
  };
}
