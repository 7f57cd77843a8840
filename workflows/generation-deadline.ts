import { CancellationScope, CancelledFailure, isCancellation, sleep } from '@temporalio/workflow';
import type { GenerationFailure } from './definitions';
import type { GenerationState } from './generation-state';

// The caller's `Cancel-After` deadline (issue 42) over a generation's provider phase: a durable
// Temporal timer in the workflow's history, so a worker that dies while it waits leaves it to the
// next worker, which fires it on time. When it fires the phase is cancelled as a workflow cancel
// would: the provider step is interrupted, settlement (generation-settlement.ts) asks the provider
// to stop the job it may have submitted and refunds, and the generation ends `canceled` with
// `deadline_exceeded`. A job not started by then is refunded the same way, without a provider call.

export const DEADLINE_EXCEEDED: GenerationFailure = {
  errorCode: 'deadline_exceeded',
  errorMessage: 'The job did not finish before its Cancel-After deadline; it was canceled (stopped at the provider if it had started) and its credits refunded.',
};

/** Runs `fn` until `deadlineAt` (epoch ms, workflow time); past it, cancels `fn` and marks the state. */
export async function runBeforeDeadline<T>(deadlineAt: number, state: GenerationState, fn: () => Promise<T>): Promise<T> {
  // Admitted only after its deadline (a backlog): the provider is never called.
  if (deadlineAt <= Date.now()) {
    state.deadlinePassed();
    throw new CancelledFailure('The Cancel-After deadline passed before the job started.');
  }
  const phase = new CancellationScope();
  const timer = new CancellationScope();
  timer
    .run(() => sleep(deadlineAt - Date.now()))
    .then(
      () => {
        state.deadlinePassed();
        phase.cancel();
      },
      (err: unknown) => {
        // The phase ended first and cancelled the timer; anything else is a bug to surface.
        if (!isCancellation(err)) throw err;
      },
    );
  try {
    return await phase.run(fn);
  } finally {
    timer.cancel();
  }
}
