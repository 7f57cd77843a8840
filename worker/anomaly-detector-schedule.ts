import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';

// The spending anomaly detector, every minute (workflows/anomaly-detector.ts); created by every
// worker at start, existing once per namespace, like the reconciler's.

export const ANOMALY_DETECTOR_SCHEDULE_ID = 'anomaly-detector';

export async function ensureAnomalyDetectorSchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: ANOMALY_DETECTOR_SCHEDULE_ID,
      spec: { intervals: [{ every: '1m' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'anomalyDetectorWorkflow',
        workflowId: 'anomaly-detector-run',
        taskQueue,
        args: [],
        workflowExecutionTimeout: '5m',
      },
      // A missed minute is not made up: the next run looks at the same last 10 minutes.
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
      memo: { purpose: 'Pauses organizations whose live spend in the last 10 minutes is an anomaly (decisions §4).' },
    });
    logger.info('anomaly detector schedule created', { schedule_id: ANOMALY_DETECTOR_SCHEDULE_ID, task_queue: taskQueue });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
