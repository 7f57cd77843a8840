import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Runs every minute from a Temporal Schedule (worker/output-retention-schedule.ts): removes the files
// of outputs past their `expires_at` (output retention, issue 42 item 3), a batch per activity, each
// batch its own transaction (activities/output-retention.ts). A backlog is worked off over
// consecutive runs, at most MAX_BATCHES a run, so one run's history stays small.

const { deleteExpiredOutputBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 5 },
});

/** Batches per run, at most: 20,000 outputs, well inside the Schedule's 10-minute run. */
const MAX_BATCHES = 100;

export interface OutputRetentionResult {
  outputs: number;
  files: number;
  /** Expiries done for good (their job finished and its files are gone). */
  swept: number;
  batches: number;
}

export async function outputRetentionWorkflow(): Promise<OutputRetentionResult> {
  const total: OutputRetentionResult = { outputs: 0, files: 0, swept: 0, batches: 0 };
  while (total.batches < MAX_BATCHES) {
    const removed = await deleteExpiredOutputBatch();
    total.batches += 1;
    total.outputs += removed.outputs;
    total.files += removed.files;
    total.swept += removed.swept;
    // A batch that changed nothing: what is left is held by another sweep, or is jobs still running.
    if (removed.outputs === 0 && removed.swept === 0) break;
  }
  return total;
}
