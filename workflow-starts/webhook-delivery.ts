import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { WebhookRelaySettings } from '../config/webhook-settings';
import type { WebhookDeliveryInput } from '../workflows/definitions';
import type { DeliveryToStart } from '../db/repos/webhook-deliveries';
import { deliverySearchAttributes } from '../domain/search-attributes';
import { deliveryMemo, deliverySummary } from '../domain/workflow-memo';

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
export async function startWebhookDelivery(temporal: Client, settings: WebhookRelaySettings, delivery: DeliveryToStart, resume?: WebhookDeliveryInput['resume']): Promise<boolean> {
  const deliveryId = delivery.id;
  const owned = {
    organizationId: delivery.organization_id,
    environment: delivery.environment,
    webhookId: delivery.subscription_id,
    eventType: delivery.event_type,
    eventId: delivery.event_id,
  };
  const input: WebhookDeliveryInput = { deliveryId, scheduleMs: settings.scheduleMs, timeoutMs: settings.timeoutMs, ...(resume && { resume }) };
  try {
    await temporal.workflow.start('webhookDeliveryWorkflow', {
      workflowId: deliveryId,
      taskQueue: settings.taskQueue,
      args: [input],
      workflowIdReusePolicy: resume ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
      // What an operator finds and reads it by in the Temporal UI (docs/operations.md).
      typedSearchAttributes: deliverySearchAttributes(owned),
      memo: deliveryMemo(owned),
      staticSummary: deliverySummary(owned),
    });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}
