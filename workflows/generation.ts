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
import { admitUpdate, type Admission, type GenerationInput, type GenerationOutcome } from './definitions';

// One generation: reserve credits (answering the caller through the `admit` update), run the
// provider, then charge or refund, then emit the event. Workflow id = generation id.

// Database steps are short and idempotent: local activities save a server round trip each.
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

  const provider = proxyActivities<Activities>({
    startToCloseTimeout: input.timeouts.providerStartToCloseMs,
    heartbeatTimeout: input.timeouts.providerHeartbeatMs,
    retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 5, nonRetryableErrorTypes: ['ProviderError'] },
  });

  try {
    const outputs = await provider.runProvider(input);
    await db.captureCredits({ generationId: input.generationId, outputs });
    await db.emitEvent({ type: 'generation.completed', generationId: input.generationId });
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
    await db.emitEvent({ type: 'generation.failed', generationId: input.generationId });
    return 'failed';
  }
}

function describeFailure(err: unknown): { errorCode: string; errorMessage: string } {
  const cause = err instanceof Error && err.cause instanceof ApplicationFailure ? err.cause : undefined;
  const details = cause?.details?.[0] as { code?: string } | undefined;
  return {
    errorCode: details?.code ?? 'provider_error',
    errorMessage: cause?.message ?? 'The provider did not produce a result.',
  };
}
