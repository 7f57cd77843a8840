import {
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { admitUpdate, type Admission, type GenerationInput, type GenerationOutcome } from './definitions';

// One generation: reserve credits (answering the caller through the `admit` update), run the
// provider, then charge or refund, which emits the event in the same transaction (an outbox row).
// Workflow id = generation id.
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

export async function generationWorkflow(input: GenerationInput): Promise<GenerationOutcome> {
  let admission: Promise<Admission> | undefined;
  let admitted: Admission | undefined;
  setHandler(admitUpdate, async () => {
    // Concurrent or repeated admits (a client retry) share the one reservation.
    admission ??= db.reserveCredits(input);
    admitted = await admission;
    return admitted;
  });

  await condition(() => admitted !== undefined);
  if (!admitted?.admitted) return 'rejected';

  const provider = proxyLocalActivities<Activities>({
    startToCloseTimeout: input.timeouts.providerStartToCloseMs,
    retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 5, nonRetryableErrorTypes: ['ProviderError'] },
  });

  try {
    const outputs = await provider.runProvider(input);
    await db.captureCredits({ generationId: input.generationId, outputs });
    return 'succeeded';
  } catch (err) {
    if (isCancellation(err)) {
      // A cancel must still refund: this scope cannot itself be cancelled.
      await CancellationScope.nonCancellable(() =>
        db.refundCredits({ generationId: input.generationId, status: 'canceled' }),
      );
      throw err;
    }
    const failure = describeFailure(err);
    await db.refundCredits({ generationId: input.generationId, status: 'failed', ...failure });
    return 'failed';
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
