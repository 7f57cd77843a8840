import type { GenerationRow } from '../db/repos/generations';
import type { AppContext } from './context';

// X-Gateway-Overhead-Ms on a sync answer (issue 42): how much of the request's time was ours, not the
// provider's, so a client can tell the gateway's latency from the model's. It counts the time from
// the moment the API received the request (api/middleware/request-id.ts, the first middleware after
// tracing) to the moment this header is set, just before the body is presented and sent, minus the
// `duration_ms` of every provider call the generation recorded (its `attempts`: each measured by the
// database from the call's start to its end, failed calls included). So it covers authentication,
// validation, admission and the reservation, queueing and workflow scheduling, input fetching,
// storing the outputs and the capture; a cache hit made no provider call and is all overhead.

const GATEWAY_OVERHEAD_HEADER = 'X-Gateway-Overhead-Ms';

/** Whole milliseconds, never below 0 (the provider's durations come from the database's clock). */
export function gatewayOverheadMs(totalMs: number, generation: Pick<GenerationRow, 'attempts'>): number {
  const providerMs = (generation.attempts ?? []).reduce((sum, attempt) => sum + attempt.duration_ms, 0);
  return Math.max(0, Math.round(totalMs - providerMs));
}

/** Sets the header on a sync answer (a 200 with a finished generation). */
export function setGatewayOverhead(ctx: AppContext, generation: Pick<GenerationRow, 'attempts'>): void {
  ctx.set(GATEWAY_OVERHEAD_HEADER, String(gatewayOverheadMs(performance.now() - ctx.state.receivedAt, generation)));
}
