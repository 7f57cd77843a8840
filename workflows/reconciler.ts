import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Runs every minute from a Temporal Schedule (worker/reconciler-schedule.ts): settles generations
// that are not terminal but whose workflow is closed or missing, so no reservation outlives its
// workflow for more than about a minute. Each repair is a log line and a `generation.failed` event.

const { findStrandedGenerations, settleStrandedGeneration, deleteExpiredAdmissionClaims } = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 5 },
});

/** Generations examined per run: a backlog is worked off over consecutive runs. */
const BATCH = 500;

export interface ReconcilerResult {
  stranded: number;
  repaired: number;
}

export async function reconcilerWorkflow(): Promise<ReconcilerResult> {
  const stranded = await findStrandedGenerations({ limit: BATCH });
  let repaired = 0;
  for (const { id } of stranded) {
    if (await settleStrandedGeneration(id)) repaired += 1;
  }
  await deleteExpiredAdmissionClaims();
  return { stranded: stranded.length, repaired };
}
