import type { Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';
import { ensureEveryMinuteSchedule } from './every-minute-schedule';

// The reconciler, every minute (workflows/reconciler.ts).

export const RECONCILER_SCHEDULE_ID = 'generation-reconciler';

export function ensureReconcilerSchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  return ensureEveryMinuteSchedule(
    {
      scheduleId: RECONCILER_SCHEDULE_ID,
      workflowType: 'reconcilerWorkflow',
      executionTimeout: '10m',
      purpose: 'Settles generations whose workflow closed without settling them.',
    },
    client,
    taskQueue,
    logger,
  );
}
