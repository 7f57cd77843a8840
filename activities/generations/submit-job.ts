// Submission: a generation's job handed to its route's provider, and the job the provider queued
// recorded on the generation's row before anyone waits on it. The row is where a re-run of the step
// resumes the job instead of paying for a second, and where a fallback or a settlement finds it to
// cancel it; a job that cannot get there is cancelled here, as nobody else will ever know it.
import { CancelledFailure, Context } from '@temporalio/activity';
import type { Logger } from '@temporalio/common';
import type { Repos } from '../../db/repos';
import { describeError } from '../../lib/logger';
import type { GenerationInput, ProviderOutcome, Submission } from '../../workflows/definitions';
import type { ProviderAdapter, ProviderContext, ProviderJob } from '../providers/types';
import { recordSubmittedJob, submitUnlessCancelled } from '../submission';
import type { Recorded } from './attempts';
import type { StoreOutputs } from './store-outputs';

/** A submission's answer: the files of a provider that answered at once, or the job it queued, now on the row. */
type SubmittedJob = { state: 'done'; outcome: ProviderOutcome } | { state: 'pending'; providerJobId: string; submittedAt: number; pollAfterMs?: number };

/**
 * Submits the job on its route and records the provider's job id on the row, or stores the files
 * of a provider that answered at once. A queued job's attempt ends when its poll does. A job whose
 * route the generation closed while it was being submitted (a cancel the activity had not heard
 * of yet, a settlement) is known to nobody else: it is cancelled here.
 */
export type SubmitJob = (input: GenerationInput, job: ProviderJob, adapter: ProviderAdapter, ctx: ProviderContext, routeIndex: number | undefined) => Promise<SubmittedJob>;

export function createJobSubmitter(deps: {
  repos: Pick<Repos, 'generations'>;
  recorded: Recorded;
  storeOutputs: StoreOutputs;
  /** How long recording a submitted job waits out a database outage (RECORD_JOB_PATIENCE_MS without it). */
  recordJobPatienceMs?: number;
}): SubmitJob {
  const { repos, recorded, storeOutputs } = deps;
  return async function submit(input, job, adapter, ctx, routeIndex) {
    const submittedAt = Date.now();
    // Taken now: a late answer's cancel runs outside this activity's context (after its cancel).
    const log = Context.current().log;
    const submitted = await recorded(
      input,
      job,
      submittedAt,
      async (): Promise<Submission & { pollAfterMs?: number }> => {
        const answer = await submitUnlessCancelled(adapter, job, ctx, (providerJobId, err) =>
          reportUncancelled(log, job, providerJobId, 'a provider job submitted for a step given up meanwhile could not be cancelled', err),
        );
        return answer.state === 'done' ? { state: 'done', outcome: await storeOutputs(input, job, answer.result) } : answer;
      },
      { ends: (answer) => answer.state === 'done' },
    );
    if (submitted.state === 'done') return submitted;
    const cancelJob = () => adapter.cancel(job, submitted.providerJobId);
    const onRow = await recordSubmittedJob({
      record: () => repos.generations.recordProviderJob(input.generationId, submitted.providerJobId, { ...job.route, index: routeIndex }),
      cancel: cancelJob,
      signal: ctx.signal,
      ...(deps.recordJobPatienceMs !== undefined && { patienceMs: deps.recordJobPatienceMs }),
      onUncancelled: (err) => reportUncancelled(log, job, submitted.providerJobId, 'a provider job that could not be recorded could not be cancelled either', err),
    });
    if (!onRow) {
      await cancelJob().catch((err) =>
        reportUncancelled(log, job, submitted.providerJobId, 'a provider job submitted on a route its generation closed meanwhile could not be cancelled', err),
      );
      throw new CancelledFailure('The generation gave this route up while its provider job was being submitted; the job was cancelled.');
    }
    return { state: 'pending', providerJobId: submitted.providerJobId, submittedAt, ...(submitted.pollAfterMs !== undefined && { pollAfterMs: submitted.pollAfterMs }) };
  };
}

/**
 * A provider job nobody will wait for, which its provider refused to cancel: it may run on, and be
 * paid for, so an operator has to stop it.
 */
function reportUncancelled(log: Logger, job: ProviderJob, providerJobId: string, what: string, err: unknown): void {
  log.error(`${what}; cancel it at the provider`, {
    generation_id: job.generationId,
    provider: job.route.provider,
    provider_job_id: providerJobId,
    ...describeError(err),
  });
}
