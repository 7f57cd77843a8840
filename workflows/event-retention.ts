import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Runs every minute from a Temporal Schedule (worker/event-retention-schedule.ts): deletes the
// events older than EVENT_RETENTION_DAYS with their webhook deliveries and attempts, a batch of
// 1000 events per activity, each batch its own transaction (activities/event-retention.ts). A
// backlog (the first run after an upgrade, a long outage) is worked off over consecutive runs, at
// most MAX_BATCHES a run, so one run's history stays small and needs no continue-as-new.

const { deleteExpiredEventBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 5 },
});

/** Batches per run, at most: 100,000 events, well inside the Schedule's 10-minute run. */
const MAX_BATCHES = 100;

export interface EventRetentionResult {
  events: number;
  deliveries: number;
  attempts: number;
  batches: number;
}

export async function eventRetentionWorkflow(): Promise<EventRetentionResult> {
  const total: EventRetentionResult = { events: 0, deliveries: 0, attempts: 0, batches: 0 };
  while (total.batches < MAX_BATCHES) {
    const deleted = await deleteExpiredEventBatch();
    total.batches += 1;
    total.events += deleted.events;
    total.deliveries += deleted.deliveries;
    total.attempts += deleted.attempts;
    // An empty batch: nothing expired is left that another sweep does not hold.
    if (deleted.events === 0) break;
  }
  return total;
}
