import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { RECOVERY_PAGE_SIZE, RECOVERY_PAGES_PER_RUN } from '../domain/webhook-recovery';
import type { WebhookRecoveryInput, WebhookRecoveryPaging } from '../workflows/definitions';

// Starting a bulk recovery's workflow (workflows/webhook-recovery.ts), from the API that accepts
// the recovery (api/routes/webhook-recoveries.ts). Here beside the delivery's start, for the same
// reason: a client-side start is neither API nor activity code (docs/architecture.md, "Import rules").

/**
 * Starts the recovery's workflow (workflow id = recovery id) on the webhook task queue unless it
 * was ever started: true when this call started it. `paging` is the domain's unless a test shortens it.
 */
export async function startWebhookRecovery(temporal: Client, taskQueue: string, recoveryId: string, paging?: WebhookRecoveryPaging): Promise<boolean> {
  const input: WebhookRecoveryInput = { recoveryId, after: null, paging: paging ?? { pageSize: RECOVERY_PAGE_SIZE, pagesPerRun: RECOVERY_PAGES_PER_RUN } };
  try {
    await temporal.workflow.start('webhookRecoveryWorkflow', { workflowId: recoveryId, taskQueue, args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}
