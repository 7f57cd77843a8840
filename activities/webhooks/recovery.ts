import type { Client } from '@temporalio/client';
import type { WebhookDeps } from '../../config/webhook-settings';
import type { Repos } from '../../db/repos';
import { startWebhookDelivery } from '../../workflow-starts/webhook-delivery';

// A bulk recovery's steps (workflows/webhook-recovery.ts): its start (status and total), one page of
// replays, its end. Each is safe to retry: the page's inserts are idempotent (db/repos/webhook-recoveries.ts).

export function createRecoveryActivities(deps: { repos: Repos; temporal?: Client; settings: () => WebhookDeps }) {
  return {
    /** The recovery `running` with its total counted; false when it does not exist. */
    async beginWebhookRecovery(recoveryId: string): Promise<boolean> {
      return (await deps.repos.webhookRecoveries.begin(recoveryId)) !== undefined;
    },

    /**
     * Replays one page (`limit` deliveries) after the delivery `after` and starts the replays' workflows (one that does
     * not start now is started by the relay's sweep). `last`: the next cursor, null when done or
     * when the webhook was deleted or disabled meanwhile.
     */
    async replayWebhookRecoveryPage(args: { recoveryId: string; after: string | null; limit: number }): Promise<{ last: string | null }> {
      if (!deps.temporal) throw new Error('a webhook recovery needs a Temporal client');
      const page = await deps.repos.webhookRecoveries.replayPage(args.recoveryId, { after: args.after, limit: args.limit });
      const relay = deps.settings().relay;
      for (const delivery of page.toStart) {
        await startWebhookDelivery(deps.temporal, relay, delivery);
        await deps.repos.webhookDeliveries.markStarted([delivery.id]);
      }
      return { last: page.stopped ? null : page.last };
    },

    async completeWebhookRecovery(recoveryId: string): Promise<void> {
      await deps.repos.webhookRecoveries.complete(recoveryId);
    },
  };
}
