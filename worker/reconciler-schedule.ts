import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';

// The reconciler's Schedule, visible in the Temporal UI. Every worker creates it at start; the
// first creation wins and the rest find it there, so it exists exactly once per namespace.

export const RECONCILER_SCHEDULE_ID = 'generation-reconciler';

export async function ensureReconcilerSchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: RECONCILER_SCHEDULE_ID,
      spec: { intervals: [{ every: '1m' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'reconcilerWorkflow',
        workflowId: 'generation-reconciler-run',
        taskQueue,
        args: [],
        workflowExecutionTimeout: '10m',
      },
      // A run still working off a backlog is not joined by a second one.
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
      memo: { purpose: 'Settles generations whose workflow closed without settling them.' },
    });
    logger.info('reconciler schedule created', { schedule_id: RECONCILER_SCHEDULE_ID, task_queue: taskQueue });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
