import type { Client } from '@temporalio/client';
import type { Logger } from '../lib/logger';
import { ensureEveryMinuteSchedule } from './every-minute-schedule';

// The webhook relay's sweep, every minute (workflows/webhook-relay.ts).

export const WEBHOOK_RELAY_SCHEDULE_ID = 'webhook-relay';

export function ensureWebhookRelaySchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  return ensureEveryMinuteSchedule(
    {
      scheduleId: WEBHOOK_RELAY_SCHEDULE_ID,
      workflowType: 'webhookRelayWorkflow',
      executionTimeout: '10m',
      purpose: 'Fans out outbox events no worker relayed at commit, and starts their deliveries.',
    },
    client,
    taskQueue,
    logger,
  );
}
