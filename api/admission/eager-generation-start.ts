import { WorkflowFailedError, type Client, type WorkflowHandle, type WorkflowIdConflictPolicy, type WorkflowStartOptions } from '@temporalio/client';
import { metrics } from '../../observability/metrics';
import type { generationWorkflow } from '../../workflows/generation';
import type { Admission, GenerationInput, GenerationOutcome } from '../../workflows/definitions';
import type { ApiDeps } from '../context';
import { refusalOf, type AdmissionWaitArgs, type RefusalArgs } from './await-admission';

// The sync path with the API's own worker (API_EMBEDDED_WORKER, worker/sync-worker.ts): a plain
// start with `requestEagerStart` on the client that shares the worker's NativeConnection, so
// Temporal returns the first workflow task with the start's answer and the job runs here, one
// matching hand-off less than Update-with-Start (which cannot be eager). The workflow reserves as
// it starts (`admitAtStart`), and a sync job runs to its end in that first task, so its result is
// the admission's answer: `rejected` sends the API to the claim and the wallet for the reason, any
// other outcome means the reservation's statement wrote the row. A start that finds no free slot
// here runs on a worker process through the queue, with the same answer.

/** A generation's start options that are not about where and how it runs (start-generation.ts builds them). */
export type GenerationStartOptions = Omit<WorkflowStartOptions<typeof generationWorkflow>, 'taskQueue' | 'args' | 'requestEagerStart'> & {
  workflowIdConflictPolicy: WorkflowIdConflictPolicy;
};

/** A started admission, by either path: what the API waits on. */
export interface StartedAdmission {
  /** The admission's answer, as awaitAdmission waits for it. */
  answer: Promise<Admission>;
  /** The started workflow, to wait on what remains of the sync window. */
  workflowHandle(): Promise<WorkflowHandle<typeof generationWorkflow>>;
  /** Stops polling for the result (the sync window ended, or the API gave up). */
  stopWaiting(): void;
}

export function startEagerly(
  deps: Pick<ApiDeps, 'repos' | 'knex'>,
  sync: { client: Client; taskQueue: string },
  input: GenerationInput,
  options: GenerationStartOptions,
  claim: RefusalArgs & Pick<AdmissionWaitArgs<unknown>, 'findAdmitted'>,
): StartedAdmission {
  const abort = new AbortController();
  const start = () =>
    sync.client.workflow.start<typeof generationWorkflow>('generationWorkflow', {
      ...options,
      taskQueue: sync.taskQueue,
      args: [{ ...input, admitAtStart: true }],
      requestEagerStart: true,
    });
  let started = start();
  const admitted = { admitted: true } as const;
  const answerOf = async (handle: Awaited<typeof started>, retried: boolean): Promise<Admission> => {
    metrics.workflowStarts.inc({ kind: 'generation', eager: String(handle.eagerlyStarted) });
    let outcome: GenerationOutcome;
    try {
      outcome = await sync.client.withAbortSignal(abort.signal, () => handle.result());
    } catch (err) {
      // Canceled or terminated: a row means it was admitted before (the caller reads it); without
      // one it never was, which the claim decides as for a refusal.
      if (!(err instanceof WorkflowFailedError)) throw err;
      return (await claim.findAdmitted()) ? admitted : await refusalOf(deps, claim);
    }
    if (outcome !== 'rejected') return admitted;
    // A taken-over retry (USE_EXISTING) may have attached to its first attempt's run, which the API
    // gave up on (its own deadline, claimed by the API): nothing decided this attempt's deadline
    // yet, so the job is not refused but started again, now that that run has closed.
    if (!retried && options.workflowIdConflictPolicy === 'USE_EXISTING' && Date.now() < claim.admitBy) {
      if ((await deps.repos.admissionClaims.refusalReason(claim.claimId, claim.admitBy)) === 'admission_timeout') {
        started = start();
        return answerOf(await started, true);
      }
    }
    return refusalOf(deps, claim);
  };
  const answer = started.then((handle) => answerOf(handle, false));
  return { answer, workflowHandle: () => started, stopWaiting: () => abort.abort() };
}
