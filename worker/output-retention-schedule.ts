import type { Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';
import { ensureEveryMinuteSchedule } from './every-minute-schedule';

// The output retention sweep, every minute (workflows/output-retention.ts).

export const OUTPUT_RETENTION_SCHEDULE_ID = 'output-retention';

export function ensureOutputRetentionSchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  return ensureEveryMinuteSchedule(
    {
      scheduleId: OUTPUT_RETENTION_SCHEDULE_ID,
      workflowType: 'outputRetentionWorkflow',
      executionTimeout: '10m',
      purpose: "Deletes the files of outputs past their expires_at (each job's retention) and marks them deleted.",
    },
    client,
    taskQueue,
    logger,
  );
}
