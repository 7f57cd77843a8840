import type { Context } from '@temporalio/activity';

/** How long an activity with no heartbeat timeout runs before its first heartbeat. */
const FIRST_HEARTBEAT_WITHOUT_TIMEOUT_MS = 10_000;

/**
 * Heartbeats an activity from a timer, every third of its heartbeat timeout, until the returned
 * function is called, whatever the activity is doing meanwhile (a submission, a download). None is
 * sent before that first third: the worker sends an activity's first heartbeat the moment it is
 * given, and Temporal records each one it receives, while most provider jobs are done before a
 * third of the timeout has passed, and then they cost no heartbeat at all. Beating every third
 * keeps the activity alive through one late heartbeat. A cancel arrives with a heartbeat's answer:
 * the first at a third of the timeout, later ones as the worker's throttling sends them (every 80%
 * of the timeout). A local activity has none to send: its worker keeps the workflow task alive.
 */
export function beatFromAThirdOfTheTimeout(ctx: Context): () => void {
  if (ctx.info.isLocal) return () => undefined;
  const everyMs = ctx.info.heartbeatTimeoutMs ? Math.max(1, Math.floor(ctx.info.heartbeatTimeoutMs / 3)) : FIRST_HEARTBEAT_WITHOUT_TIMEOUT_MS;
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  return () => clearInterval(timer);
}
