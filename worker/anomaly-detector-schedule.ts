import type { Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';
import { ensureEveryMinuteSchedule } from './every-minute-schedule';

// The spending anomaly detector, every minute (workflows/anomaly-detector.ts).

export const ANOMALY_DETECTOR_SCHEDULE_ID = 'anomaly-detector';

export function ensureAnomalyDetectorSchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  return ensureEveryMinuteSchedule(
    {
      scheduleId: ANOMALY_DETECTOR_SCHEDULE_ID,
      workflowType: 'anomalyDetectorWorkflow',
      executionTimeout: '5m',
      purpose: 'Pauses organizations whose live spend in the last 10 minutes is an anomaly (decisions §4).',
    },
    client,
    taskQueue,
    logger,
  );
}
