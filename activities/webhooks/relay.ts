import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { WebhookRelaySettings } from '../../config/webhook-settings';
import type { Repos } from '../../db/repos';
import type { DeliveryToStart } from '../../db/repos/webhook-deliveries';
import type { WebhookDeliveryInput } from '../../workflows/definitions';
import { startWebhookDelivery } from '../../workflow-starts/webhook-delivery';

// The outbox relay (docs/api.md, "Webhooks"): fans committed events out into deliveries, then starts
// each delivery's workflow. Both steps are safe to run any number of times, from any number of
// processes at once: the fan-out takes events under SKIP LOCKED and writes at most one delivery per
// (event, subscription); a delivery's workflow id is its id, and REJECT_DUPLICATE means a finished
// delivery is never started again by the relay.
//
// The Schedule's sweep also restarts deliveries that can no longer end on their own: not ended,
// overdue, and whose workflow has closed (failed, terminated, timed out) or is gone. The new run
// (ALLOW_DUPLICATE: the id is free once the old run closed) resumes at the first attempt not
// recorded, after what is left of its gap; attempts are keyed by number, so nothing is sent twice
// for one number and none is skipped.

const FAN_OUT_BATCH = 200;
const START_BATCH = 500;
export const RELAY_START_CONCURRENCY = 32;
/** How overdue a delivery's next step must be before the sweep asks whether its workflow still runs. */
export const STRANDED_AFTER_MS = 2 * 60_000;
const OVERDUE_PAGE = 200;

export function createWebhookRelay(deps: {
  repos: Repos;
  temporal: Client;
  settings: WebhookRelaySettings;
  heartbeat?: () => void;
  log?: (message: string, fields: Record<string, unknown>) => void;
}) {
  const { repos, temporal, settings } = deps;

  /** Starts the delivery's workflow unless one runs (workflow-starts/webhook-delivery.ts). */
  const startDelivery = (delivery: DeliveryToStart, resume?: WebhookDeliveryInput['resume']) => startWebhookDelivery(temporal, settings, delivery, resume);

  /** The workflow's status name, or `missing` when Temporal has no run of it. */
  async function workflowStatus(deliveryId: string): Promise<string> {
    try {
      return (await temporal.workflow.getHandle(deliveryId).describe()).status.name;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'missing';
      throw err;
    }
  }

  /**
   * Restarts every overdue delivery whose workflow is closed or missing, RELAY_START_CONCURRENCY at
   * a time, paging through all of them (one failing restart is logged and leaves the rest going).
   */
  async function restartStranded(): Promise<number> {
    let restarted = 0;
    let after: { dueAt: Date; id: string } | undefined;
    for (;;) {
      const page = await repos.webhookDeliveries.listOverdue({ graceMs: STRANDED_AFTER_MS, limit: OVERDUE_PAGE, ...(after && { after }) });
      const last = page[page.length - 1];
      if (last) after = { dueAt: last.due_at, id: last.id };
      for (let i = 0; i < page.length; i += RELAY_START_CONCURRENCY) {
        const outcomes = await Promise.allSettled(
          page.slice(i, i + RELAY_START_CONCURRENCY).map(async (d) => {
            const status = await workflowStatus(d.id);
            if (status === 'RUNNING') return false;
            const resume = { number: d.attempt_count + 1, gapMs: d.next_attempt_at ? Math.max(0, d.next_attempt_at.getTime() - Date.now()) : 0 };
            // Another sweep may have restarted it since it was read.
            if (!(await startDelivery(d, resume))) return false;
            deps.log?.('restarted a webhook delivery whose workflow had closed without ending it', {
              delivery_id: d.id,
              workflow_status: status,
              next_attempt: resume.number,
            });
            return true;
          }),
        );
        for (const [k, outcome] of outcomes.entries()) {
          if (outcome.status === 'fulfilled') restarted += outcome.value ? 1 : 0;
          else deps.log?.('could not restart a stranded webhook delivery; the next sweep tries again', { delivery_id: page[i + k]!.id, error: String(outcome.reason) });
        }
        deps.heartbeat?.();
      }
      if (page.length < OVERDUE_PAGE) return restarted;
    }
  }

  /**
   * Starts the deliveries RELAY_START_CONCURRENCY at a time (a new start as soon as one returns, so
   * one slow answer holds up no chunk), marking them started in batches as they go.
   */
  async function startAll(deliveries: DeliveryToStart[]): Promise<number> {
    let next = 0;
    let failure: unknown;
    const started: string[] = [];
    const flush = async () => {
      if (started.length === 0) return;
      await repos.webhookDeliveries.markStarted(started.splice(0));
      deps.heartbeat?.();
    };
    const lanes = Array.from({ length: Math.min(RELAY_START_CONCURRENCY, deliveries.length) }, async () => {
      while (next < deliveries.length && failure === undefined) {
        const delivery = deliveries[next++]!;
        try {
          await startDelivery(delivery);
          started.push(delivery.id);
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
    return deliveries.length;
  }

  return {
    restartStranded,

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
