import { patched, proxyActivities, proxyLocalActivities, sleep, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { WebhookDeliveryInput, WebhookDeliveryOutcome } from './definitions';

// One webhook delivery (workflow id = delivery id, on the webhook task queue, so a slow receiver
// never holds up a generation): an attempt after each gap of the retry schedule, on durable timers,
// until the receiver answers 2xx in time or the schedule runs out (`exhausted`). A worker that dies
// between attempts loses nothing: the timer lives in Temporal, and the next worker sends the next
// attempt when it fires. Each attempt records itself under its number, so a retried activity never
// records an attempt twice. Deleting the subscription ends the delivery in the database and cancels
// this workflow; an attempt that still fires finds the delivery ended and sends nothing.
//
// Attempts run as local activities (`local-attempts`): a delivery the receiver accepts at once is
// then one workflow task, with no activity task for Temporal to match, which is most of what a
// delivery cost over a bare workflow (README, bench:webhooks). A receiver that takes longer than
// the workflow task timeout only makes the SDK renew the task. Deliveries started before the patch
// keep their (remote) activities.

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryOutcome> {
  const options: ActivityOptions = {
    // The receiver's time, plus room to resolve, sign and record.
    startToCloseTimeout: input.timeoutMs + 30_000,
    retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 30 },
  };
  const { attemptWebhookDelivery } = patched('local-attempts') ? proxyLocalActivities<Activities>(options) : proxyActivities<Activities>(options);
  for (const [i, gapMs] of input.scheduleMs.entries()) {
    if (gapMs > 0) await sleep(gapMs);
    const next = input.scheduleMs[i + 1];
    const outcome = await attemptWebhookDelivery({
      deliveryId: input.deliveryId,
      number: i + 1,
      timeoutMs: input.timeoutMs,
      nextGapMs: next === undefined ? null : next,
    });
    if (outcome !== 'failed') return outcome;
  }
  return 'exhausted';
}
