import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { WebhookRelaySettings } from '../config/webhook-settings';
import type { WebhookDeliveryInput } from '../workflows/definitions';

// Starting a webhook delivery's workflow, which two floors do: the API when a delivery is replayed
// (api/routes/webhooks.ts) and the outbox relay in the worker (activities/webhooks/relay.ts). One
// module keeps the workflow id, task queue, input and reuse policy the same for both. It is a
// Temporal client call, not activity code and not HTTP code, so it lives in neither api/ (nothing
// below the API imports it) nor activities/ (the API runs no activity code), but in workflow-starts/,
// the floor of client-side workflow starts that more than one process shares (docs/architecture.md,
// "Import rules").

/**
 * Starts the delivery's workflow unless one runs (or, without `resume`, ever ran); true when this
 * call started it. The workflow id is the delivery's id; REJECT_DUPLICATE means a finished delivery
 * is never started again, while a `resume` (the relay's sweep of stranded deliveries) reuses the id
 * of a run that has closed.
 */
export async function startWebhookDelivery(temporal: Client, settings: WebhookRelaySettings, deliveryId: string, resume?: WebhookDeliveryInput['resume']): Promise<boolean> {
  const input: WebhookDeliveryInput = { deliveryId, scheduleMs: settings.scheduleMs, timeoutMs: settings.timeoutMs, ...(resume && { resume }) };
  try {
    await temporal.workflow.start('webhookDeliveryWorkflow', {
      workflowId: deliveryId,
      taskQueue: settings.taskQueue,
      args: [input],
      workflowIdReusePolicy: resume ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
    });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}
