import {
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { MODALITY_MODE } from '../domain/modalities';
import { admitUpdate, providerCallbackSignal, type Admission, type GenerationInput, type GenerationOutcome, type ProviderOutcome } from './definitions';

// One generation: reserve credits (answering the caller through the `admit` update), run the
// provider, then charge or refund, which emits the event in the same transaction (an outbox row).
// Workflow id = generation id. Sync modalities run the provider as a local activity; async ones
// submit to the provider and then poll it from a heartbeating activity (activities/generations.ts).
//
// Every step is a local activity: for the synchronous modalities the whole generation completes in
// one workflow task, which keeps Temporal's share of a sync request close to that of a workflow
// that only returns. A worker that dies mid-step loses its workflow task; after the task timeout
// another worker replays the history and re-runs the step, and the ledger's per-generation keys
// keep that from moving money twice.

const db = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '200ms', maximumInterval: '10s' },
});

// Transient provider errors (ProviderTransientError) are retried; a provider's verdict is not.
const PROVIDER_RETRY = { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 5, nonRetryableErrorTypes: ['ProviderError'] };

export async function generationWorkflow(input: GenerationInput): Promise<GenerationOutcome> {
  let admission: Promise<Admission> | undefined;
  let admitted: Admission | undefined;
  setHandler(admitUpdate, async () => {
    // Workflow time is when a worker first ran this workflow: past admitBy, the API has already
    // answered 503, so nothing may be reserved or run.
    if (admission === undefined && input.admitBy !== undefined && Date.now() > input.admitBy) {
      admitted = { admitted: false, code: 'admission_timeout' };
      return admitted;
    }
    // Concurrent or repeated admits (a client retry) share the one reservation.
    admission ??= db.reserveCredits(input);
    admitted = await admission;
    return admitted;
  });

  let callbackArrived = false;
  setHandler(providerCallbackSignal, () => void (callbackArrived = true));

  await condition(() => admitted !== undefined);
  if (!admitted?.admitted) return 'rejected';

  let providerJobId: string | undefined;
  async function runAsync(): Promise<ProviderOutcome> {
    const remote = proxyActivities<Activities>({
      startToCloseTimeout: input.timeouts.asyncJobTimeoutMs,
      heartbeatTimeout: input.timeouts.heartbeatTimeoutMs,
      retry: PROVIDER_RETRY,
    });
    const submitted = await remote.submitToProvider(input);
    if (submitted.state === 'done') return submitted.outcome;
    const jobId = (providerJobId = submitted.providerJobId);
    // Poll until done; a provider callback cuts the current wait short: the polling activity is
    // cancelled and a new one polls at once.
    for (;;) {
      callbackArrived = false;
      const polling = new CancellationScope();
      const outcome = polling.run(() => remote.awaitProviderJob(input, jobId));
      const first = await Promise.race([outcome.then((done) => ({ done })), condition(() => callbackArrived).then(() => undefined)]);
      if (first) return first.done;
      polling.cancel();
      // It may have finished just before the cancel: then that is the answer.
      const late = await outcome.catch(() => undefined);
      if (late) return late;
    }
  }

  try {
    const outcome =
      MODALITY_MODE[input.modality] === 'sync'
        ? await proxyLocalActivities<Activities>({ startToCloseTimeout: input.timeouts.providerStartToCloseMs, retry: PROVIDER_RETRY }).runProvider(input)
        : await runAsync();
    await db.captureCredits({ input, outcome });
    return 'succeeded';
  } catch (err) {
    if (isCancellation(err)) {
      // A cancel must still refund (and tell the provider): this scope cannot itself be cancelled.
      await CancellationScope.nonCancellable(async () => {
        if (providerJobId) await cancelAtProvider(input, providerJobId);
        await db.refundCredits({ generationId: input.generationId, status: 'canceled' });
      });
      throw err;
    }
    const failure = describeFailure(err);
    await db.refundCredits({ generationId: input.generationId, status: 'failed', ...failure });
    return 'failed';
  }
}

/** Best effort: the refund does not wait on a provider that will not answer. */
async function cancelAtProvider(input: GenerationInput, providerJobId: string): Promise<void> {
  const remote = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 3 } });
  try {
    await remote.cancelProviderJob(input, providerJobId);
  } catch {
    // The provider keeps running a job we no longer pay for; nothing more to do.
  }
}

function describeFailure(err: unknown): { errorCode: string; errorMessage: string } {
  // The provider's ApplicationFailure sits somewhere down the cause chain (ActivityFailure wraps it).
  let cause: unknown = err;
  while (cause instanceof Error && !(cause instanceof ApplicationFailure)) cause = cause.cause;
  const failure = cause instanceof ApplicationFailure ? cause : undefined;
  const details = failure?.details?.[0] as { code?: string } | undefined;
  return {
    errorCode: details?.code ?? 'provider_error',
    errorMessage: failure?.message ?? 'The provider did not produce a result.',
  };
}
