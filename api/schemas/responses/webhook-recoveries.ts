// A bulk recovery (api/presenters/webhook-recovery.ts), the answer of POST /v1/webhooks/{id}/recover
// and GET /v1/webhook-recoveries/{id}.

import { WEBHOOK_RECOVERY_STATUSES } from '../../../domain/webhook-recovery';
import { enumOf, id, nullableTimestamp, timestamp } from './shared';

const WebhookRecovery = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'webhook_id', 'since', 'until', 'status', 'total', 'replayed', 'succeeded', 'created_at', 'completed_at'],
  properties: {
    id,
    object: { const: 'webhook_recovery' },
    webhook_id: id,
    since: timestamp,
    until: { ...timestamp, description: 'The end of the window (excluded); the time of the request when it was omitted.' },
    status: enumOf(WEBHOOK_RECOVERY_STATUSES, '`queued`, then `running` while it replays, then `completed` (also when the webhook was deleted or disabled meanwhile).'),
    total: { type: ['integer', 'null'], description: 'How many events it replays (one per event, however many of its deliveries failed); null until the job has counted them.' },
    replayed: { type: 'integer', description: 'Replays created so far.' },
    succeeded: { type: 'integer', description: 'Replays the receiver accepted so far.' },
    created_at: timestamp,
    completed_at: nullableTimestamp,
  },
};

export const WEBHOOK_RECOVERY_SCHEMAS = { WebhookRecovery };
