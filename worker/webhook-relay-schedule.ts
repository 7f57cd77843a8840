import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';

// The webhook relay's sweep, every minute (workflows/webhook-relay.ts); created by every worker at
// start, existing once per namespace, like the reconciler's.

export const WEBHOOK_RELAY_SCHEDULE_ID = 'webhook-relay';

export async function ensureWebhookRelaySchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: WEBHOOK_RELAY_SCHEDULE_ID,
      spec: { intervals: [{ every: '1m' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'webhookRelayWorkflow',
        workflowId: 'webhook-relay-run',
        taskQueue,
        args: [],
        workflowExecutionTimeout: '10m',
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
      memo: { purpose: 'Fans out outbox events no worker relayed at commit, and starts their deliveries.' },
    });
    logger.info('webhook relay schedule created', { schedule_id: WEBHOOK_RELAY_SCHEDULE_ID, task_queue: taskQueue });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
