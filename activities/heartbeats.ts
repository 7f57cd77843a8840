import type { Context } from '@temporalio/activity';

/** How long an activity with no heartbeat timeout runs before its first heartbeat. */
const FIRST_HEARTBEAT_WITHOUT_TIMEOUT_MS = 10_000;

export interface Heartbeats {
  /** A heartbeat, sent only once the activity has run `everyMs` (a no-op in a local activity). */
  beat(): void;
  /** Beats every `everyMs` until the returned function is called, whatever the activity is doing. */
  keepAlive(): () => void;
}

/**
 * An activity's heartbeats from a third of its heartbeat timeout on. The worker sends an activity's
 * first heartbeat the moment it is given, and Temporal records each one it receives; most provider
 * jobs are done before that third has passed, and then they cost no heartbeat at all. Beating every
 * third keeps the activity alive through one late heartbeat. A cancel arrives with a heartbeat's
 * answer: the first at a third of the timeout, later ones as the worker's throttling sends them
 * (every 80% of the timeout). A local activity has none to send: its worker keeps the workflow
 * task alive.
 */
export function deferredHeartbeats(ctx: Context): Heartbeats {
  if (ctx.info.isLocal) return { beat: () => undefined, keepAlive: () => () => undefined };
  const startedAt = Date.now();
  const everyMs = ctx.info.heartbeatTimeoutMs ? Math.max(1, Math.floor(ctx.info.heartbeatTimeoutMs / 3)) : FIRST_HEARTBEAT_WITHOUT_TIMEOUT_MS;
  const beat = () => {
    if (Date.now() - startedAt >= everyMs) ctx.heartbeat();
  };
  return {
    beat,
    keepAlive() {
      const timer = setInterval(() => ctx.heartbeat(), everyMs);
      return () => clearInterval(timer);
    },
  };
}
