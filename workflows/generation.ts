import { allHandlersFinished, CancellationScope, condition, deprecatePatch, patched, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DEFAULT_ADMISSION_WAIT_MS, providerBudgetMs } from '../domain/generation-timeouts';
import { admitUpdate, type GenerationInput, type GenerationOutcome } from './definitions';
import { describeFailure, DB_RETRY } from './failures';
import { runRoutes, runWithinBudget } from './generation-provider';
import { runBeforeDeadline } from './generation-deadline';
import { settleLeftovers } from './generation-settlement';
import { GenerationState } from './generation-state';
import { upsertStatus } from './search-attribute-upserts';

// One generation: reserve credits (answering the caller through the `admit` update, or, started
// eagerly with `admitAtStart`, through its result), run the
// provider (generation-provider.ts), then charge or refund (generation-settlement.ts), which emits
// the event in the same transaction (an outbox row). Workflow id = generation id. Its state and the
// only ways it changes live in generation-state.ts; this function registers the handlers and runs
// the steps in order.
//
// Every step is a local activity: for the synchronous modalities the whole generation completes in
// one workflow task. A worker that dies mid-step loses its workflow task; after the task timeout
// another worker replays the history and re-runs the step, and the ledger's per-generation keys
// keep that from moving money twice.
//
// Money cannot strand here: admission and every settlement run in non-cancellable scopes, and the
// one `finally` settles whatever is not yet terminal (a cancel at any point, a failure, a provider
// that outlives its budget). What this code cannot see (a terminated or timed-out workflow) the
// reconciler settles (workflows/reconciler.ts).

const db = proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', retry: DB_RETRY });

export async function generationWorkflow(input: GenerationInput): Promise<GenerationOutcome> {
  const root = CancellationScope.current();
  // A comparison's child was admitted with its comparison, in the same statement as its siblings;
  // it only confirms that its comparison has not refunded it meanwhile.
  const state = new GenerationState(input.comparisonId === undefined ? undefined : CancellationScope.nonCancellable(() => db.confirmChildAdmission(input.generationId)));
  // The admission deadline (admitBy) is enforced where the reservation commits, by the admission
  // statement, not here: a worker replaying this workflow after a crash, past admitBy, must find
  // the reservation its predecessor committed (and run the job), not refuse it.
  //
  // Concurrent or repeated admits (a client retry) share the one reservation, which a cancel
  // cannot interrupt halfway: it either commits and is settled below, or never happens.
  setHandler(admitUpdate, async () => state.admit(() => CancellationScope.nonCancellable(() => db.reserveCredits(input))));

  try {
    if (input.admitAtStart && patched('admit-at-start')) {
      // An eager sync start (API_EMBEDDED_WORKER): no update asks, the workflow reserves as its
      // first step and its result tells the API the verdict (api/admission/start-generation.ts).
      state.admitUnasked(() => CancellationScope.nonCancellable(() => db.reserveCredits(input)));
    } else {
      const admitWaitMs = input.admitBy === undefined ? DEFAULT_ADMISSION_WAIT_MS : Math.max(0, input.admitBy - Date.now()) + 1_000;
      // No admission by the deadline: the update may have been lost (a Temporal server restarted
      // before it was recorded) after its reservation committed. Admitting here finds that
      // reservation and runs the job; with none, the statement refuses, as the deadline has passed.
      if (!(await condition(() => state.admission !== undefined, admitWaitMs))) {
        state.admitUnasked(() => CancellationScope.nonCancellable(() => db.reserveCredits(input)));
      }
    }
    if (!(await state.admission!).admitted) {
      upsertStatus(null);
      return 'rejected';
    }
    // Routes tried in order since `provider-routes` (docs/testing.md, the patch ledger).
    deprecatePatch('provider-routes');
    const runPhase = () => runWithinBudget(providerBudgetMs(input.modality, input.timeouts), () => runRoutes(input, state));
    // A `Cancel-After` deadline (issue 42) is a durable timer over the provider phase.
    const outcome = input.deadlineAt !== undefined && patched('deadline') ? await runBeforeDeadline(input.deadlineAt, state, runPhase) : await runPhase();
    await CancellationScope.nonCancellable(() => db.captureCredits({ input, outcome }));
    state.settledNow();
    upsertStatus('succeeded');
    return 'succeeded';
  } catch (err) {
    if (root.consideredCancelled) throw err;
    // The deadline cancelled the phase: settlement ends it canceled, `deadline_exceeded`.
    if (state.deadlineExceeded) return 'canceled';
    state.failed(describeFailure(err, providerBudgetMs(input.modality, input.timeouts)));
    return 'failed';
  } finally {
    await CancellationScope.nonCancellable(async () => {
      await settleLeftovers(input, state, root);
      await condition(allHandlersFinished);
    });
  }
}
