import pg from 'pg';
import type { WebhookRelay } from '../activities/webhooks/relay';
import type { Logger } from '../lib/logger';

// The relay's fast path: every worker LISTENs on `events_committed` (notified on commit by a
// trigger on the outbox, migration 0011) and runs one relay pass at once, so an event reaches its
// receivers within milliseconds of the transaction that made it true. Passes never overlap in a
// process: a notification during a pass asks for one more pass after it. On (re)connect it runs a
// pass too, for whatever committed while it was not listening. The minute's sweep (a Temporal
// Schedule) covers a worker that was down, or died mid-pass.

const CHANNEL = 'events_committed';
const RECONNECT_DELAY_MS = 1_000;
const CONNECT_TIMEOUT_MS = 3_000;

export async function startEventRelay(databaseUrl: string, relay: WebhookRelay, logger: Logger): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | undefined;
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

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

  function reconnect(c: pg.Client, err?: Error): void {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => undefined);
    if (closed) return;
    logger.warn('event relay disconnected; reconnecting', { error: err?.message });
    reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    c.on('notification', pass);
    c.on('error', (err) => reconnect(c, err));
    c.on('end', () => reconnect(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      if (closed) return;
      logger.warn('event relay could not connect; retrying', { error: (err as Error).message });
      reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
      return;
    }
    client = c;
    pass();
  }

  await connect();
  return {
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
      await running;
    },
  };
}
