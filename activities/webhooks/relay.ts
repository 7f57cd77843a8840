import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Repos } from '../../db/repos';
import type { WebhookDeliveryInput } from '../../workflows/definitions';

// The outbox relay (README, "Webhooks"): fans committed events out into deliveries, then starts
// each delivery's workflow. Both steps are safe to run any number of times, from any number of
// processes at once: the fan-out takes events under SKIP LOCKED and writes at most one delivery per
// (event, subscription); a delivery's workflow id is its id, and REJECT_DUPLICATE means a finished
// delivery is never started again.

const FAN_OUT_BATCH = 200;
const START_BATCH = 500;
const START_CONCURRENCY = 32;

export interface WebhookRelaySettings {
  taskQueue: string;
  scheduleMs: number[];
  timeoutMs: number;
}

export function createWebhookRelay(deps: { repos: Repos; temporal: Client; settings: WebhookRelaySettings; heartbeat?: () => void }) {
  const { repos, temporal, settings } = deps;

  /** Starts the delivery's workflow unless it already was; true either way once it exists. */
  async function startDelivery(deliveryId: string): Promise<void> {
    const input: WebhookDeliveryInput = { deliveryId, scheduleMs: settings.scheduleMs, timeoutMs: settings.timeoutMs };
    try {
      await temporal.workflow.start('webhookDeliveryWorkflow', {
        workflowId: deliveryId,
        taskQueue: settings.taskQueue,
        args: [input],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  return {
    startDelivery,

    /** One full pass: every undispatched event fanned out, every unstarted delivery started. */
    async relay(): Promise<{ events: number; deliveries: number; started: number }> {
      let events = 0;
      let deliveries = 0;
      for (;;) {
        const batch = await repos.webhookDeliveries.fanOut(FAN_OUT_BATCH);
        events += batch.events;
        deliveries += batch.deliveries;
        deps.heartbeat?.();
        if (batch.events < FAN_OUT_BATCH) break;
      }
      let started = 0;
      for (;;) {
        const unstarted = await repos.webhookDeliveries.listUnstarted(START_BATCH);
        for (let i = 0; i < unstarted.length; i += START_CONCURRENCY) {
          const chunk = unstarted.slice(i, i + START_CONCURRENCY);
          await Promise.all(chunk.map(startDelivery));
          await repos.webhookDeliveries.markStarted(chunk);
          started += chunk.length;
          deps.heartbeat?.();
        }
        if (unstarted.length < START_BATCH) break;
      }
      return { events, deliveries, started };
    },
  };
}

export type WebhookRelay = ReturnType<typeof createWebhookRelay>;
