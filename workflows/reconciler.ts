import { deprecatePatch, log, proxyActivities } from '@temporalio/workflow';
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

/**
 * Stranded generations (and comparisons) repaired per run, at most: a backlog is worked off over
 * consecutive runs. Every open generation is looked at in each run (findStrandedGenerations pages
 * through them all), so the oldest running jobs never hide a newer stranded one.
 */
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
  /** Repairs that failed (each logged with its id); the next run tries them again. */
  failed?: number;
}

export async function reconcilerWorkflow(args: ReconcilerArgs = {}): Promise<ReconcilerResult> {
  // One repair that keeps failing (its activity's retries spent) is logged and left to the next
  // run; the others, the comparisons and the claims go ahead (`reconciler-settles-each`).
  deprecatePatch('reconciler-settles-each');
  let failed = 0;
  /** How many of `ids` `settle` repaired; a failure counts in `failed`. */
  async function settleAll(ids: string[], settle: (id: string) => Promise<boolean>, what: 'generation' | 'comparison'): Promise<number> {
    let repaired = 0;
    for (let i = 0; i < ids.length; i += SETTLE_CONCURRENCY) {
      const batch = ids.slice(i, i + SETTLE_CONCURRENCY);
      const settled = await Promise.allSettled(batch.map((id) => settle(id)));
      settled.forEach((outcome, j) => {
        if (outcome.status === 'fulfilled') {
          if (outcome.value) repaired += 1;
          return;
        }
        failed += 1;
        log.error(`the reconciler could not repair a stranded ${what}; the next run tries again`, {
          [`${what}_id`]: batch[j],
          error: outcome.reason instanceof Error ? (outcome.reason.cause instanceof Error ? outcome.reason.cause.message : outcome.reason.message) : String(outcome.reason),
        });
      });
    }
    return repaired;
  }

  const stranded = await findStrandedGenerations({ limit: BATCH, minAgeMs: args.minAgeMs ?? DEFAULT_MIN_AGE_MS });
  const repaired = await settleAll(
    stranded.map(({ id }) => id),
    (id) => settleStrandedGeneration(id),
    'generation',
  );
  // After the generations, so that a comparison whose last open children were just refunded gets
  // its verdict in the same run.
  deprecatePatch('reconcile-comparisons');
  const open = await findStrandedComparisons({ limit: BATCH, minAgeMs: args.minAgeMs ?? DEFAULT_MIN_AGE_MS });
  const finished = await settleAll(open, (id) => settleStrandedComparison(id), 'comparison');
  await deleteExpiredAdmissionClaims();
  return { stranded: stranded.length, repaired, strandedComparisons: open.length, finishedComparisons: finished, failed };
}
