import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Runs every minute from a Temporal Schedule (worker/reconciler-schedule.ts): settles generations
// that are not terminal but whose workflow is closed or missing, so no reservation outlives its
// workflow for more than about a minute. Each repair is a log line and a `generation.failed` event.
// Then it records the verdict of comparisons whose workflow closed without one, from their
// children's states (each with its `comparison.completed` event).

const { findStrandedGenerations, settleStrandedGeneration, findStrandedComparisons, settleStrandedComparison, deleteExpiredAdmissionClaims } = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 5 },
});

/** Generations examined per run: a backlog is worked off over consecutive runs. */
const BATCH = 500;
/** Each repair is its own short transaction on its own generation: several may run at once. */
const SETTLE_CONCURRENCY = 8;
/**
 * Younger generations are left to the next runs. A stranded one waits a minute longer to be
 * repaired; in exchange a run never races a generation whose row was just written.
 */
const DEFAULT_MIN_AGE_MS = 60_000;

export interface ReconcilerArgs {
  /** Only generations created at least this long ago (tests pass 0). */
  minAgeMs?: number;
}

export interface ReconcilerResult {
  stranded: number;
  repaired: number;
  /** Comparisons whose workflow died, and how many of them got their verdict in this run. */
  strandedComparisons?: number;
  finishedComparisons?: number;
}

export async function reconcilerWorkflow(args: ReconcilerArgs = {}): Promise<ReconcilerResult> {
  const stranded = await findStrandedGenerations({ limit: BATCH, minAgeMs: args.minAgeMs ?? DEFAULT_MIN_AGE_MS });
  let repaired = 0;
  for (let i = 0; i < stranded.length; i += SETTLE_CONCURRENCY) {
    const settled = await Promise.all(stranded.slice(i, i + SETTLE_CONCURRENCY).map(({ id }) => settleStrandedGeneration(id)));
    repaired += settled.filter(Boolean).length;
  }
  // After the generations, so that a comparison whose last open children were just refunded gets
  // its verdict in the same run.
  let comparisons: Pick<ReconcilerResult, 'strandedComparisons' | 'finishedComparisons'> = {};
  if (patched('reconcile-comparisons')) {
    const open = await findStrandedComparisons({ limit: BATCH, minAgeMs: args.minAgeMs ?? DEFAULT_MIN_AGE_MS });
    let finished = 0;
    for (let i = 0; i < open.length; i += SETTLE_CONCURRENCY) {
      const settled = await Promise.all(open.slice(i, i + SETTLE_CONCURRENCY).map((id) => settleStrandedComparison(id)));
      finished += settled.filter(Boolean).length;
    }
    comparisons = { strandedComparisons: open.length, finishedComparisons: finished };
  }
  await deleteExpiredAdmissionClaims();
  return { stranded: stranded.length, repaired, ...comparisons };
}
