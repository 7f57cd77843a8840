import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// The relay's sweep, every minute from a Temporal Schedule (worker/webhook-relay-schedule.ts): fans
// out every event not yet dispatched and starts every delivery whose workflow is not known to be
// started, then restarts every delivery whose workflow closed before the delivery ended (logged).
// Each worker also runs the fan-out and starts the moment an event commits (worker/event-relay.ts);
// the sweep is what makes "the process died right after the commit" lose nothing.

const { relayWebhookEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 5 },
});

export async function webhookRelayWorkflow(): Promise<{ events: number; deliveries: number; started: number; restarted?: number }> {
  return relayWebhookEvents();
}
