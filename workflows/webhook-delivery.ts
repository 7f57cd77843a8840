import { CancellationScope, deprecatePatch, isCancellation, patched, proxyLocalActivities, sleep, type ActivityOptions } from '@temporalio/workflow';
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
// delivery cost over a bare workflow (see docs/benchmarks.md, bench:webhooks). A receiver that
// takes longer than the workflow task timeout only makes the SDK renew the task.
//
// Every delivery ends `succeeded` or `exhausted` (`delivery-always-ends`, issue 33):
// - a failure before the POST (the database, a secret that does not open) sent nothing: the attempt
//   is retried, as the same attempt, until the schedule's planned end, and consumes no attempt. An
//   answer the send step could not record at once comes back here and is recorded by its own
//   step, retried, never by POSTing again; a record that cannot be made leaves the attempt "sent,
//   outcome unknown" and the next attempt follows the schedule.
// - whatever ends the workflow short of a recorded verdict (the schedule's end passed in an outage,
//   a bug, a cancellation) ends the delivery `exhausted` in a non-cancellable `finally`; a run that
//   closes without even that (terminated, timed out) is restarted by the relay's sweep.
// Deliveries started before `delivery-always-ends` keep the code they started with (the loop below).
//
// A throttled subscription (max_deliveries_per_second, issue 41; `throttled-sends`): the send step
// takes the attempt's slot and, when it lies ahead (or the send gate is closed: db/repos/webhook-throttle.ts),
// answers `wait` without sending; the workflow sleeps on a durable timer, then sends the same attempt
// with the slot held (only the gate again, which may answer one more short `wait`). A wait
// is no attempt and no failure (nothing is recorded until the send), so it moves neither the attempt
// numbers nor the endpoint's health; the attempt records how long it waited. An unthrottled send is
// one step, as before. A retry after a failure takes a new slot like any send.

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryOutcome> {
  if (patched('delivery-always-ends')) return deliverUntilEnded(input);
  const options: ActivityOptions = {
    // The receiver's time, plus room to resolve, sign and record.
    startToCloseTimeout: input.timeoutMs + 30_000,
    retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 30 },
  };
  deprecatePatch('local-attempts');
  const { attemptWebhookDelivery } = proxyLocalActivities<Activities>(options);
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

/**
 * Infrastructure failures are retried at least once a minute, as long as the schedule lasts. Waits
 * over 10 s are durable timers (localRetryThreshold), not a workflow task held open for hours.
 */
const INFRASTRUCTURE_RETRY = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' } as const;
const LOCAL_RETRY_THRESHOLD = '10s';

async function deliverUntilEnded(input: WebhookDeliveryInput): Promise<WebhookDeliveryOutcome> {
  // The receiver's time, plus room to resolve, sign and record.
  const attemptTimeoutMs = input.timeoutMs + 30_000;
  const first = input.resume?.number ?? 1;
  const gapBefore = (n: number) => (n === first && input.resume ? input.resume.gapMs : input.scheduleMs[n - 1]!);
  let plannedMs = 0;
  for (let n = first; n <= input.scheduleMs.length; n += 1) plannedMs += gapBefore(n);
  // The schedule's planned end: sends and records are retried until then (at least one try each).
  const scheduleEndsAt = Date.now() + plannedMs;
  const untilScheduleEnds = () =>
    proxyLocalActivities<Activities>({
      startToCloseTimeout: attemptTimeoutMs,
      scheduleToCloseTimeout: Math.max(scheduleEndsAt - Date.now(), attemptTimeoutMs),
      retry: INFRASTRUCTURE_RETRY,
      localRetryThreshold: LOCAL_RETRY_THRESHOLD,
    });
  let ended = false;
  try {
    for (let n = first; n <= input.scheduleMs.length; n += 1) {
      const gapMs = gapBefore(n);
      if (gapMs > 0) await sleep(gapMs);
      const { sendWebhookAttempt, recordWebhookAttempt } = untilScheduleEnds();
      const next = input.scheduleMs[n];
      const nextGapMs = next === undefined ? null : next;
      const attempt = { deliveryId: input.deliveryId, number: n, timeoutMs: input.timeoutMs, nextGapMs };
      let sent = await sendWebhookAttempt(attempt);
      let throttledMs = 0;
      while (sent.kind === 'wait') {
        // Only a throttled subscription's send answers `wait`: the marker tells such runs apart.
        patched('throttled-sends');
        throttledMs += sent.waitMs;
        await sleep(sent.waitMs);
        sent = await sendWebhookAttempt({ ...attempt, waitedForSlotMs: throttledMs });
      }
      let outcome: WebhookDeliveryOutcome;
      if (sent.kind === 'ended') {
        outcome = sent.outcome;
      } else {
        try {
          outcome = await recordWebhookAttempt({ deliveryId: input.deliveryId, number: n, result: sent.result, nextGapMs, ...(throttledMs > 0 && { throttledMs }) });
        } catch (err) {
          if (isCancellation(err)) throw err;
          // Sent, outcome unknown: never sent again for want of a record; the schedule goes on.
          outcome = 'failed';
        }
      }
      if (outcome !== 'failed') {
        ended = true;
        return outcome;
      }
    }
    return 'exhausted';
  } finally {
    if (!ended) {
      const { endWebhookDelivery } = proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', retry: INFRASTRUCTURE_RETRY, localRetryThreshold: LOCAL_RETRY_THRESHOLD });
      await CancellationScope.nonCancellable(() => endWebhookDelivery(input.deliveryId));
    }
  }
}
