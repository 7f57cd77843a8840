import pg from 'pg';
import type { Logger } from '../lib/logger';

// One LISTEN connection that stays up: on a drop it reconnects after RECONNECT_DELAY_MS, and on
// every (re)connect it calls `onConnected`, for whatever was notified while it was not listening.
// Postgres delivers a notification only once its transaction commits.

const RECONNECT_DELAY_MS = 1_000;
const CONNECT_TIMEOUT_MS = 3_000;

export interface PgListenerOptions {
  databaseUrl: string;
  channel: string;
  onNotification: (payload: string) => void;
  onConnected?: () => void;
  logger: Logger;
}

export async function startPgListener(opts: PgListenerOptions): Promise<{ close(): Promise<void> }> {
  const { channel, logger } = opts;
  let client: pg.Client | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  function reconnect(c: pg.Client, err?: Error): void {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => undefined);
    if (closed) return;
    logger.warn('listener disconnected; reconnecting', { channel, error: err?.message });
    reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    c.on('notification', (message) => opts.onNotification(message.payload ?? ''));
    c.on('error', (err) => reconnect(c, err));
    c.on('end', () => reconnect(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      if (closed) return;
      logger.warn('listener could not connect; retrying', { channel, error: (err as Error).message });
      reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
      return;
    }
    client = c;
    opts.onConnected?.();
  }

  await connect();
  return {
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
