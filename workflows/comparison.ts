import { allHandlersFinished, CancellationScope, condition, ParentClosePolicy, proxyLocalActivities, setHandler, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DEFAULT_ADMISSION_WAIT_MS, generationExecutionTimeoutMs } from '../domain/generation-timeouts';
import { admitUpdate, type Admission, type ComparisonInput, type ComparisonOutcome, type GenerationInput } from './definitions';
import { DB_RETRY } from './failures';
import { generationWorkflow } from './generation';
import { setsSearchAttributes, upsertStatus } from './search-attribute-upserts';
import { generationSearchAttributes } from '../domain/search-attributes';
import { generationMemo, generationSummary } from '../domain/workflow-memo';

// One comparison: admit it with every child in one statement (answering the caller through the
// `admit` update, as a generation does), run each child as an ordinary generation workflow (child
// workflow id = generation id) side by side, then record the verdict with its `comparison.completed`
// event. Workflow id = comparison id.
//
// Each child settles its own share: a child's failure is its own and never fails its siblings. A
// cancel of the comparison reaches every running child, which refunds itself. Money cannot strand:
// the one `finally` refunds any child whose workflow never started (a cancel or a failure before
// its start) and records the verdict. Children outlive a comparison workflow that dies (their parent
// close policy is ABANDON): they settle themselves, and the reconciler records the verdict.

/** A child this run admitted but never started. */
const NEVER_STARTED = {
  errorCode: 'internal_error',
  errorMessage: 'The comparison was interrupted before this model could start; its credits were refunded.',
  // Ours, and the same request may well succeed when sent again.
  errorSource: 'gateway' as const,
  retryable: true,
};

const db = proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', retry: DB_RETRY });

export async function comparisonWorkflow(input: ComparisonInput): Promise<ComparisonOutcome> {
  const root = CancellationScope.current();
  let admission: Promise<Admission> | undefined;
  let closing = false;
  setHandler(admitUpdate, async () => {
    if (admission === undefined && closing) return { admitted: false, code: 'admission_timeout' } satisfies Admission;
    // As in generationWorkflow: the deadline is enforced by the admission statement, and repeated
    // admits share the one reservation, which a cancel cannot interrupt halfway.
    admission ??= CancellationScope.nonCancellable(() => db.reserveComparison(input));
    return admission;
  });

  const started = new Set<string>();
  let outcome: ComparisonOutcome = 'rejected';
  try {
    const admitWaitMs = input.admitBy === undefined ? DEFAULT_ADMISSION_WAIT_MS : Math.max(0, input.admitBy - Date.now()) + 1_000;
    // A lost update (see generationWorkflow): admitting here finds a committed admission, or refuses.
    if (!(await condition(() => admission !== undefined, admitWaitMs))) {
      admission = CancellationScope.nonCancellable(() => db.reserveComparison(input));
    }
    if (!(await admission!).admitted) {
      upsertStatus(null);
      return outcome;
    }
    upsertStatus('running');
    // allSettled: a child that failed, or was cancelled, has settled itself; its siblings go on.
    await Promise.allSettled(input.children.map((child) => runChild(child)));
  } finally {
    await CancellationScope.nonCancellable(async () => {
      closing = true;
      if (await settleUnstarted()) {
        const finished = await db.finishComparison(input.comparisonId);
        outcome = finished ?? outcome;
        // `open`: a child is left to the reconciler, and the comparison is still running.
        if (finished !== undefined && finished !== 'open') upsertStatus(finished);
      }
      await condition(allHandlersFinished);
    });
  }
  return outcome;

  async function runChild(child: GenerationInput): Promise<void> {
    const handle = await startChild(generationWorkflow, {
      workflowId: child.generationId,
      args: [child],
      // A child keeps running, and settles itself, if this workflow is terminated or times out.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowExecutionTimeout: generationExecutionTimeoutMs(child.modality, child.timeouts, 0),
      // Found and read in the Temporal UI as a generation of its own, under its comparison's id.
      ...(setsSearchAttributes() && {
        typedSearchAttributes: generationSearchAttributes(child),
        memo: generationMemo(child),
        staticSummary: generationSummary(child),
      }),
    });
    started.add(child.generationId);
    await handle.result();
  }

  /**
   * Refunds the children whose workflow never started: nothing else would settle their shares.
   * Without a known verdict it refunds all the same, as generationWorkflow does: an admission
   * committed by a worker that died is found by id (a child row that does not exist is left alone).
   * Returns whether the comparison may have been admitted.
   */
  async function settleUnstarted(): Promise<boolean> {
    const verdict = await admission?.catch(() => undefined);
    if (verdict && !verdict.admitted) return false;
    const canceled = root.consideredCancelled;
    await Promise.all(
      input.children
        .filter((child) => !started.has(child.generationId))
        .map((child) =>
          db.refundCredits(canceled ? { generationId: child.generationId, status: 'canceled' } : { generationId: child.generationId, status: 'failed', ...NEVER_STARTED }),
        ),
    );
    return true;
  }
}
