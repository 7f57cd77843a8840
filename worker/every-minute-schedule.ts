import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';

// The workers' housekeeping Schedules (reconciler, webhook relay sweep, anomaly detector, event retention, output retention), visible
// in the Temporal UI. Every worker creates them at start; the first creation wins and the rest find
// them there, so each exists exactly once per namespace. A run still going is not joined by a
// second, and a missed minute is not made up: the next run covers it.

export interface EveryMinuteSchedule {
  scheduleId: string;
  workflowType: string;
  /** How long one run may take before Temporal ends it. */
  executionTimeout: string;
  purpose: string;
}

export async function ensureEveryMinuteSchedule(schedule: EveryMinuteSchedule, client: Client, taskQueue: string, logger: Logger): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: schedule.scheduleId,
      spec: { intervals: [{ every: '1m' }] },
      action: {
        type: 'startWorkflow',
        workflowType: schedule.workflowType,
        workflowId: `${schedule.scheduleId}-run`,
        taskQueue,
        args: [],
        workflowExecutionTimeout: schedule.executionTimeout,
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
      memo: { purpose: schedule.purpose },
    });
    logger.info('schedule created', { schedule_id: schedule.scheduleId, task_queue: taskQueue });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
