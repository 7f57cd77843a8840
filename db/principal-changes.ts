import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Logger } from '../lib/logger';

// Listens on `principal_changes` (notified by triggers on api_keys, users and organizations,
// migration 0003) and proves, continuously, how current it is: every PING_INTERVAL_MS it notifies
// its own channel and waits for that ping to come back. Postgres delivers notifications in commit
// order, so when a ping sent at time t comes back, every change committed before t has already been
// delivered. `confirmedThrough()` is that t, on this process's monotonic clock.

const CHANNEL = 'principal_changes';
const PING_INTERVAL_MS = 50;
const RECONNECT_DELAY_MS = 500;
// A server that stops answering (frozen, or gone without a reset) leaves a connection open but
// dead: a ping unanswered this long ends it and a fresh one is opened, as after a disconnect.
const PING_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 3_000;

export interface PrincipalChangeListener {
  /** performance.now() time before which every committed change has been delivered; -Infinity if none. */
  confirmedThrough(): number;
  /** Called on every change, and after a reconnect (changes made while disconnected were missed). */
  onChange(fn: () => void): void;
  close(): Promise<void>;
}

export async function startPrincipalChangeListener(databaseUrl: string, logger: Logger): Promise<PrincipalChangeListener> {
  const instance = randomUUID();
  const pingPrefix = `ping:${instance}:`;
  const changeHandlers: (() => void)[] = [];
  const pingsInFlight = new Map<number, number>();
  let confirmed = Number.NEGATIVE_INFINITY;
  let sequence = 0;
  let client: pg.Client | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const changed = () => changeHandlers.forEach((fn) => fn());

  function onNotification(message: pg.Notification): void {
    const payload = message.payload ?? '';
    if (payload.startsWith(pingPrefix)) {
      const n = Number(payload.slice(pingPrefix.length));
      const sentAt = pingsInFlight.get(n);
      if (sentAt !== undefined) confirmed = Math.max(confirmed, sentAt);
      for (const k of pingsInFlight.keys()) if (k <= n) pingsInFlight.delete(k);
    } else if (!payload.startsWith('ping:')) {
      changed();
    }
  }

  function scheduleReconnect(c: pg.Client, err?: Error): void {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => undefined);
    if (closed) return;
    logger.warn('principal change listener disconnected; reconnecting', { error: err?.message });
    reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: PING_TIMEOUT_MS });
    c.on('notification', onNotification);
    c.on('error', (err) => scheduleReconnect(c, err));
    c.on('end', () => scheduleReconnect(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      if (closed) return;
      logger.warn('principal change listener could not connect; retrying', { error: (err as Error).message });
      reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
      return;
    }
    // Whatever changed while nobody listened is unknown: forget everything before trusting pings.
    changed();
    client = c;
  }

  let pinging = false;
  const pinger = setInterval(() => {
    const c = client;
    // One ping at a time: a slow database just makes confirmations (and so cache hits) rarer.
    if (!c || pinging) return;
    const n = ++sequence;
    pingsInFlight.set(n, performance.now());
    pinging = true;
    c.query('SELECT pg_notify($1, $2)', [CHANNEL, `${pingPrefix}${n}`])
      .catch((err: Error) => {
        pingsInFlight.delete(n);
        scheduleReconnect(c, err);
      })
      .finally(() => (pinging = false));
  }, PING_INTERVAL_MS);
  pinger.unref();

  await connect();

  return {
    confirmedThrough: () => confirmed,
    onChange: (fn) => void changeHandlers.push(fn),
    async close() {
      closed = true;
      clearInterval(pinger);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
