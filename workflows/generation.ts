import {
  allHandlersFinished,
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DEFAULT_ADMISSION_WAIT_MS, providerBudgetMs } from '../domain/generation-timeouts';
import { MODALITY_MODE } from '../domain/modalities';
import { admitUpdate, providerCallbackSignal, type Admission, type GenerationFailure, type GenerationInput, type GenerationOutcome, type ProviderOutcome } from './definitions';
import { describeFailure, DB_RETRY, mayFallBack, PROVIDER_RETRY } from './failures';

// One generation: reserve credits (answering the caller through the `admit` update), run the
// provider, then charge or refund, which emits the event in the same transaction (an outbox row).
// Workflow id = generation id. Sync modalities run the provider as a local activity; async ones
// submit to the provider and poll it from one heartbeating activity (activities/generations.ts).
// Either records a queued provider job on the row, where a fallback or a settlement finds it.
//
// Every step is a local activity: for the synchronous modalities the whole generation completes in
// one workflow task. A worker that dies mid-step loses its workflow task; after the task timeout
// another worker replays the history and re-runs the step, and the ledger's per-generation keys
// keep that from moving money twice.
//
// A generation runs on its routes in order (decisions §7): each route's step is retried on
// retryable provider errors (with backoff, and at least the provider's Retry-After), and once they
// are spent the next route runs. A queued job left behind is cancelled first, so no two paid jobs of
// one generation ever run at once. A non-retryable error fails at once.
//
// Money cannot strand here: admission and every settlement run in non-cancellable scopes, and the
// one `finally` settles whatever is not yet terminal (a cancel at any point, a failure, a provider
// that outlives its budget). What this code cannot see (a terminated or timed-out workflow) the
// reconciler settles (workflows/reconciler.ts).

/** A reservation this run never saw the verdict of (see settleLeftovers). */
const LOST_ADMISSION: GenerationFailure = {
  errorCode: 'internal_error',
  errorMessage: 'The generation was interrupted before it could start; its credits were refunded.',
  errorSource: 'gateway',
  retryable: true,
};

const db = proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', retry: DB_RETRY });

export async function generationWorkflow(input: GenerationInput): Promise<GenerationOutcome> {
  const root = CancellationScope.current();
  // A comparison's child was admitted with its comparison, in the same statement as its siblings;
  // it only confirms that its comparison has not refunded it meanwhile.
  let admission: Promise<Admission> | undefined =
    input.comparisonId === undefined ? undefined : CancellationScope.nonCancellable(() => db.confirmChildAdmission(input.generationId));
  /** Set once the workflow settles to close: no admission may start after that. */
  let closing = false;
  setHandler(admitUpdate, async () => {
    if (admission === undefined && closing) return { admitted: false, code: 'admission_timeout' } satisfies Admission;
    // The admission deadline (admitBy) is enforced where the reservation commits, by the admission
    // statement, not here: a worker replaying this workflow after a crash, past admitBy, must find
    // the reservation its predecessor committed (and run the job), not refuse it.
    //
    // Concurrent or repeated admits (a client retry) share the one reservation, which a cancel
    // cannot interrupt halfway: it either commits and is settled below, or never happens.
    admission ??= CancellationScope.nonCancellable(() => db.reserveCredits(input));
    return admission;
  });

  let callbackArrived = false;
  setHandler(providerCallbackSignal, () => void (callbackArrived = true));

  let providerJobId: string | undefined;
  /** The route `providerJobId` runs on; undefined in workflows started before routes. */
  let providerJobRoute: number | undefined;
  /**
   * The route whose `runProviderJob` or `runProvider` may have left a provider job running: those
   * activities record the job's id on the row, not here, so stopping it goes through the row.
   */
  let recordedJob: { route: number; sync: boolean } | undefined;
  let settled = false;
  let failure: GenerationFailure | undefined;
  try {
    const admitWaitMs = input.admitBy === undefined ? DEFAULT_ADMISSION_WAIT_MS : Math.max(0, input.admitBy - Date.now()) + 1_000;
    // No admission by the deadline: the update may have been lost (a Temporal server restarted
    // before it was recorded) after its reservation committed. Admitting here finds that
    // reservation and runs the job; with none, the statement refuses, as the deadline has passed.
    if (!(await condition(() => admission !== undefined, admitWaitMs))) {
      admission = CancellationScope.nonCancellable(() => db.reserveCredits(input));
    }
    if (!(await admission!).admitted) return 'rejected';
    const routed = patched('provider-routes');
    const outcome = await runWithinBudget(providerBudgetMs(input.modality, input.timeouts), () =>
      routed ? runRoutes() : MODALITY_MODE[input.modality] === 'sync' ? runSync() : runAsync(),
    );
    await CancellationScope.nonCancellable(() => db.captureCredits({ input, outcome }));
    settled = true;
    return 'succeeded';
  } catch (err) {
    if (root.consideredCancelled) throw err;
    failure = describeFailure(err, providerBudgetMs(input.modality, input.timeouts));
    return 'failed';
  } finally {
    await CancellationScope.nonCancellable(async () => {
      await settleLeftovers();
      await condition(allHandlersFinished);
    });
  }

  /**
   * Refunds a reservation that did not reach capture, and stops its provider job. Without a known
   * verdict it refunds by generation id all the same: a worker that died after committing the
   * reservation, replayed with a cancel ahead of the update, has a reservation this run never saw.
   */
  async function settleLeftovers(): Promise<void> {
    closing = true;
    if (settled) return;
    const verdict = await admission?.catch(() => undefined);
    if (verdict && !verdict.admitted) return;
    await stopProviderJob();
    const canceled = root.consideredCancelled && failure === undefined;
    await db.refundCredits(
      canceled ? { generationId: input.generationId, status: 'canceled' } : { generationId: input.generationId, status: 'failed', ...(failure ?? LOST_ADMISSION) },
    );
    settled = true;
  }

  /** Each route in turn, while the one before failed in a way another provider may not. */
  async function runRoutes(): Promise<ProviderOutcome> {
    const count = Math.max(1, input.routes?.length ?? 1);
    for (let route = 0; ; route++) {
      try {
        return MODALITY_MODE[input.modality] === 'sync' ? await runSync(route) : await runAsync(route);
      } catch (err) {
        if (route + 1 >= count || isCancellation(err) || !mayFallBack(err)) throw err;
        const stopped = await CancellationScope.nonCancellable(stopProviderJob);
        // A job this route queued that could not be cancelled may still be running, and paid for:
        // the next route would be a second paid job at the same time, so the generation ends here.
        if (!stopped && patched('fallback-after-stop')) throw err;
      }
    }
  }

  /**
   * Asks the provider to stop the job this run may have left running, and forgets it. False when a
   * job may still be running: its cancel failed (best effort: the provider keeps a job we no longer
   * wait for).
   */
  async function stopProviderJob(): Promise<boolean> {
    let stopped = true;
    if (providerJobId) stopped = await cancelAtProvider(input, { providerJobId, route: providerJobRoute });
    // A sync step's queued job is stopped from the row since `sync-provider-jobs`; before, it was left running.
    else if (recordedJob && (!recordedJob.sync || patched('sync-provider-jobs'))) stopped = await cancelAtProvider(input, { recordedOn: recordedJob.route });
    providerJobId = undefined;
    recordedJob = undefined;
    return stopped;
  }

  async function runSync(route?: number): Promise<ProviderOutcome> {
    const local = proxyLocalActivities<Activities>({ startToCloseTimeout: input.timeouts.providerStartToCloseMs, retry: PROVIDER_RETRY });
    if (route === undefined) return local.runProvider(input);
    recordedJob = { route, sync: true };
    const outcome = await local.runProvider(input, route);
    recordedJob = undefined;
    return outcome;
  }

  async function runAsync(route?: number): Promise<ProviderOutcome> {
    const remote = proxyActivities<Activities>({
      startToCloseTimeout: input.timeouts.asyncJobTimeoutMs,
      heartbeatTimeout: input.timeouts.heartbeatTimeoutMs,
      retry: PROVIDER_RETRY,
    });
    // One activity submits and polls: a workflow task and an activity task fewer per job than
    // submitting and polling in two. A provider's callback wakes its poll (activities/poll-hints.ts);
    // the signal of an API from before poll hints is not waited on here, as restarting this activity
    // while it submits could submit twice, and its poll comes within seconds anyway.
    if (route !== undefined && patched('one-provider-activity')) {
      recordedJob = { route, sync: false };
      const outcome = await remote.runProviderJob(input, route);
      recordedJob = undefined;
      return outcome;
    }
    const submitted = route === undefined ? await remote.submitToProvider(input) : await remote.submitToProvider(input, route);
    if (submitted.state === 'done') return submitted.outcome;
    const jobId = (providerJobId = submitted.providerJobId);
    providerJobRoute = route;
    return untilDone(() => (route === undefined ? remote.awaitProviderJob(input, jobId) : remote.awaitProviderJob(input, jobId, route)));
  }

  /**
   * Runs a polling activity until the job is done. A provider's callback wakes the poll inside the
   * activity (activities/poll-hints.ts); APIs before that signalled the workflow instead, and for one
   * of them still running during a rolling upgrade the signal is honoured: the polling activity is
   * cancelled and a new one polls.
   */
  async function untilDone(poll: () => Promise<ProviderOutcome>): Promise<ProviderOutcome> {
    for (;;) {
      callbackArrived = false;
      const polling = new CancellationScope();
      const outcome = polling.run(poll);
      const first = await Promise.race([outcome.then((done) => ({ done })), condition(() => callbackArrived).then(() => undefined)]);
      if (first) return first.done;
      polling.cancel();
      // It may have finished just before the cancel: then that is the answer.
      const late = await outcome.catch(() => undefined);
      if (late) return late;
    }
  }
}

/** Runs the provider phase; past its budget the phase is cancelled and fails as `provider_timeout`. */
function runWithinBudget<T>(budgetMs: number, fn: () => Promise<T>): Promise<T> {
  return CancellationScope.withTimeout(budgetMs, fn);
}

/**
 * Best effort: the refund does not wait on a provider that will not answer. A job is known by its id
 * (two-activity workflows) or as whatever `runProviderJob` recorded on the row for a route. True
 * when nothing is left running there: no job, one the provider stopped, or one that had ended.
 */
async function cancelAtProvider(input: GenerationInput, job: { providerJobId: string; route: number | undefined } | { recordedOn: number }): Promise<boolean> {
  const remote = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 3 } });
  try {
    if ('recordedOn' in job) await remote.cancelRecordedProviderJob(input, job.recordedOn);
    else await (job.route === undefined ? remote.cancelProviderJob(input, job.providerJobId) : remote.cancelProviderJob(input, job.providerJobId, job.route));
    return true;
  } catch {
    // The provider keeps running a job we no longer wait for; nothing more to do here.
    return false;
  }
}
