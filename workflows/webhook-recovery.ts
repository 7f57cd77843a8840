import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { WebhookRecoveryInput } from './definitions';

// A bulk recovery (workflow id = recovery id, on the webhook task queue; issue 41, item 4): counts
// what it replays, then pages through its webhook's exhausted deliveries of the window in creation
// order, each page replayed (new deliveries carrying the recovery's id, their workflows started) by
// one activity, then marks the recovery completed. Its progress is counted from those deliveries on
// read, so the workflow keeps nothing but its cursor.
//
// A retried page inserts nothing twice (unique recovery_id, event_id) and starts what the failed
// try left unstarted (or the relay's sweep does). Activities are retried without limit: a database
// or Temporal outage only delays the recovery, never leaves it `running` with nothing to finish it.
// A recovery that is gone (never committed) ends the run at once. After `paging.pagesPerRun` pages
// it continues as new with its cursor, so a large recovery's history stays small.

const { beginWebhookRecovery, replayWebhookRecoveryPage, completeWebhookRecovery } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

export async function webhookRecoveryWorkflow(input: WebhookRecoveryInput): Promise<'completed' | 'gone'> {
  if (!(await beginWebhookRecovery(input.recoveryId))) return 'gone';
  let after = input.after;
  for (let page = 0; page < input.paging.pagesPerRun; page += 1) {
    const replayed = await replayWebhookRecoveryPage({ recoveryId: input.recoveryId, after, limit: input.paging.pageSize });
    if (replayed.last === null) {
      await completeWebhookRecovery(input.recoveryId);
      return 'completed';
    }
    after = replayed.last;
  }
  return continueAsNew<typeof webhookRecoveryWorkflow>({ ...input, after });
}
