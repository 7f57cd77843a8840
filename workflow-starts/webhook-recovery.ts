import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { WebhookRecoveryInput } from '../workflows/definitions';

// Starting a bulk recovery's workflow (workflows/webhook-recovery.ts), from the API that accepts
// the recovery (api/routes/webhook-recoveries.ts). Here beside the delivery's start, for the same
// reason: a client-side start is neither API nor activity code (docs/architecture.md, "Import rules").

/**
 * Starts the recovery's workflow (workflow id = recovery id) on the webhook task queue unless it
 * was ever started: true when this call started it.
 */
export async function startWebhookRecovery(temporal: Client, taskQueue: string, recoveryId: string): Promise<boolean> {
  const input: WebhookRecoveryInput = { recoveryId, after: null };
  try {
    await temporal.workflow.start('webhookRecoveryWorkflow', { workflowId: recoveryId, taskQueue, args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}
