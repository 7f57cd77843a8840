import type { WebhookRelay } from '../activities/webhooks/relay';
import { startPgListener } from '../db/pg-listener';
import type { Logger } from '../lib/logger';

// The relay's fast path: every worker LISTENs on `events_committed` (notified on commit by a
// trigger on the outbox, migration 0011) and runs one relay pass at once, so an event reaches its
// receivers within milliseconds of the transaction that made it true. Passes never overlap in a
// process: a notification during a pass asks for one more pass after it. On (re)connect it runs a
// pass too, for whatever committed while it was not listening. The minute's sweep (a Temporal
// Schedule) covers a worker that was down, or died mid-pass.

const CHANNEL = 'events_committed';

export async function startEventRelay(databaseUrl: string, relay: WebhookRelay, logger: Logger): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;

  function pass(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = relay
      .relay()
      .then(
        (done) => void (done.events > 0 && logger.debug('relayed webhook events', done)),
        (err: Error) => logger.warn('webhook relay pass failed; the next event or the sweep retries it', { error: err.message }),
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          pass();
        }
      });
  }

  const listener = await startPgListener({ databaseUrl, channel: CHANNEL, onNotification: pass, onConnected: pass, logger });
  return {
    async close() {
      closed = true;
      await listener.close();
      await running;
    },
  };
}
