import type { Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';
import { ensureEveryMinuteSchedule } from './every-minute-schedule';

// The events' retention sweep, every minute (workflows/event-retention.ts).

export const EVENT_RETENTION_SCHEDULE_ID = 'event-retention';

export function ensureEventRetentionSchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  return ensureEveryMinuteSchedule(
    {
      scheduleId: EVENT_RETENTION_SCHEDULE_ID,
      workflowType: 'eventRetentionWorkflow',
      executionTimeout: '10m',
      purpose: 'Deletes events older than EVENT_RETENTION_DAYS with their webhook deliveries and attempts.',
    },
    client,
    taskQueue,
    logger,
  );
}
