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
export const RELAY_START_CONCURRENCY = 32;

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

  /**
   * Starts the deliveries RELAY_START_CONCURRENCY at a time (a new start as soon as one returns, so
   * one slow answer holds up no chunk), marking them started in batches as they go.
   */
  async function startAll(ids: string[]): Promise<number> {
    let next = 0;
    let failure: unknown;
    const started: string[] = [];
    const flush = async () => {
      if (started.length === 0) return;
      await repos.webhookDeliveries.markStarted(started.splice(0));
      deps.heartbeat?.();
    };
    const lanes = Array.from({ length: Math.min(RELAY_START_CONCURRENCY, ids.length) }, async () => {
      while (next < ids.length && failure === undefined) {
        const id = ids[next++]!;
        try {
          await startDelivery(id);
          started.push(id);
          if (started.length >= RELAY_START_CONCURRENCY) await flush();
        } catch (err) {
          failure ??= err;
        }
      }
    });
    await Promise.all(lanes);
    // Those started before a failure are marked; the rest stay unstarted for the next pass.
    await flush();
    if (failure !== undefined) throw failure;
    return ids.length;
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
        started += await startAll(unstarted);
        if (unstarted.length < START_BATCH) break;
      }
      return { events, deliveries, started };
    },
  };
}

export type WebhookRelay = ReturnType<typeof createWebhookRelay>;
