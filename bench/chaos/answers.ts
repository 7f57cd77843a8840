import type { FaultWindow } from '../lib/chaos-stack';
import { recoveryMs, type ProbeOutcome } from '../lib/probe-trickle';
import { textTable } from '../lib/text-table';

// What the API answered while the faults happened: in which window each answer came (a request
// sent just before an outage is answered, or not, during it), which answers break the rule "503
// while a dependency is down, never 500, never silence, and no 503 when nothing is down", whether
// each fault produced a 503 at all, and how long each dependency's return took to show in a
// successful request. The API process itself killed is the one fault no answer can cover: a
// request in flight then gets its connection cut (and none a 503).

const answeredAt = (o: ProbeOutcome) => o.startedAt + o.ms;

/**
 * How long after a dependency is back a 503 is still right: the API's connections to it (a pool,
 * a gRPC channel) reconnect on their next use, so the first requests after a return may still
 * find them broken. Past that, a 503 means the service refused work with every dependency up.
 */
export const FAULT_GRACE_MS = 5_000;

/** Whether the request was in flight (sent to answered) while `fault` was down or within the grace after it. */
export const overlapsFault = (o: ProbeOutcome, fault: FaultWindow) => o.startedAt < fault.backAt + FAULT_GRACE_MS && answeredAt(o) >= fault.downAt;

/** Which part of the run a moment falls in: `<dependency> down` or `<dependency> back`. */
export function windowOf(at: number, faults: FaultWindow[]): string {
  let label = 'before faults';
  for (const fault of faults) {
    if (at >= fault.downAt && at < fault.backAt) return `${fault.dependency} down`;
    if (at >= fault.backAt) label = `${fault.dependency} back`;
  }
  return label;
}

/** The 409 a cancel of something already ended gets, by probe. */
const NOT_CANCELABLE: Record<string, string> = { cancel: 'generation_not_cancelable', 'cancel comparison': 'comparison_not_cancelable' };
const isNotCancelable = (o: ProbeOutcome) => o.status === 409 && o.code !== undefined && NOT_CANCELABLE[o.probe] === o.code;

/** A retried creation finding its first attempt (same Idempotency-Key) still being handled: decisions §9. */
const isInProgress = (o: ProbeOutcome) => o.probe === 'create' && o.status === 409 && o.code === 'idempotency_in_progress';

/** A request whose connection the API's kill cut, or which found no API listening. */
const isCutOff = (o: ProbeOutcome, faults: FaultWindow[]) => o.failure === 'connection' && faults.some((f) => f.dependency === 'api' && overlapsFault(o, f));

/** A right answer to a valid request: a success, a 503 while a fault is on (or within its grace), (cancels only) "already ended", or a cut connection while the API was killed. */
function isExpected(o: ProbeOutcome, faults: FaultWindow[]): boolean {
  if (o.failure) return isCutOff(o, faults);
  if (o.status >= 200 && o.status < 300) return true;
  if (o.status === 503) return faults.some((f) => overlapsFault(o, f));
  return isNotCancelable(o) || isInProgress(o);
}

/** Per fault, how many 503s were answered to requests in flight during it (or its grace). */
export function unavailableAnswers(outcomes: ProbeOutcome[], faults: FaultWindow[]): number[] {
  return faults.map((f) => outcomes.filter((o) => o.status === 503 && overlapsFault(o, f)).length);
}

/** Per fault, how many requests in flight during it (or its grace) had their connection cut: only an API kill should cut any. */
export function cutOffAnswers(outcomes: ProbeOutcome[], faults: FaultWindow[]): number[] {
  return faults.map((f) => outcomes.filter((o) => o.failure === 'connection' && overlapsFault(o, f)).length);
}

function describe(o: ProbeOutcome): string {
  if (o.failure === 'hang') return 'no answer within the deadline (hang)';
  if (o.failure) return `connection failure (${(o.detail ?? '').slice(0, 120)})`;
  return `${o.status} ${o.code ?? '(no error code)'}`;
}

/** Every unexpected answer, grouped by request, window and answer, with when and a few request ids. */
export function answerViolations(outcomes: ProbeOutcome[], faults: FaultWindow[], t0: number): string[] {
  const groups = new Map<string, ProbeOutcome[]>();
  for (const o of outcomes) {
    if (isExpected(o, faults)) continue;
    const outside = o.status === 503 ? ` (no fault on, nor one ended within ${FAULT_GRACE_MS / 1000} s)` : '';
    const key = `${o.probe} answered while ${windowOf(answeredAt(o), faults)}: ${describe(o)}${outside}`;
    groups.set(
      key,
      [...(groups.get(key) ?? []), o].sort((a, b) => a.startedAt - b.startedAt),
    );
  }
  const at = (ms: number) => `+${((ms - t0) / 1000).toFixed(1)} s`;
  return [...groups].map(([key, list]) => {
    const ids = list.flatMap((o) => /"request_id":"([^"]+)"/.exec(o.detail ?? '')?.[1] ?? []).slice(0, 3);
    const first = list[0]!;
    const last = list[list.length - 1]!;
    return (
      `${key} × ${list.length} (sent ${at(first.startedAt)} to ${at(last.startedAt)}, answered ${at(answeredAt(first))} to ${at(answeredAt(last))}` +
      `${ids.length > 0 ? `; request ids ${ids.join(', ')}` : ''})`
    );
  });
}

/** Per window (in order) and request: successes, 503s by code, 500s, other answers, hangs and connection failures. */
export function answersTable(outcomes: ProbeOutcome[], faults: FaultWindow[], probes: string[]): string {
  const windows = ['before faults', ...faults.flatMap((f) => [`${f.dependency} down`, `${f.dependency} back`])];
  const rows: (string | number)[][] = [];
  for (const window of windows) {
    for (const probe of probes) {
      const mine = outcomes.filter((o) => o.probe === probe && windowOf(answeredAt(o), faults) === window);
      if (mine.length === 0) continue;
      const n = (f: (o: ProbeOutcome) => boolean) => mine.filter(f).length;
      rows.push([
        window,
        probe,
        mine.length,
        n((o) => o.status >= 200 && o.status < 300),
        n((o) => isNotCancelable(o) || isInProgress(o)),
        n((o) => o.status === 503 && o.code === 'service_unavailable'),
        n((o) => o.status === 503 && o.code === 'provider_unavailable'),
        n((o) => o.status === 500),
        n((o) => o.status >= 300 && ![409, 500, 503].includes(o.status)) + n((o) => o.status === 409 && !isNotCancelable(o) && !isInProgress(o)),
        n((o) => o.failure === 'hang'),
        n((o) => o.failure === 'connection'),
      ]);
    }
  }
  return textTable(
    ['window', 'request', 'answers', '2xx', '409 not cancelable / in progress', '503 service_unavailable', '503 provider_unavailable', '500', 'other', 'hang', 'conn err'],
    rows,
  );
}

export interface Recovery {
  fault: FaultWindow;
  perProbe: Record<string, number | undefined>;
  /** The longest of the probes' recovery times; undefined if one of them never succeeded. */
  worstMs: number | undefined;
}

/** Per fault, the time to the first 2xx of each probe, counting only requests sent before the next fault. */
export function recoveries(outcomes: ProbeOutcome[], faults: FaultWindow[], probes: string[]): Recovery[] {
  return faults.map((fault, i) => {
    const until = faults[i + 1]?.downAt;
    const perProbe = Object.fromEntries(probes.map((p) => [p, recoveryMs(outcomes, p, fault.backAt, until)]));
    const values = Object.values(perProbe);
    return { fault, perProbe, worstMs: values.includes(undefined) ? undefined : Math.max(...(values as number[])) };
  });
}

export function recoveryTable(list: Recovery[], probes: string[]): string {
  const s = (ms: number | undefined) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(2)} s`);
  return textTable(
    ['dependency', 'outage', ...probes.map((p) => `first 2xx ${p}`), 'recovery'],
    list.map((r) => [r.fault.dependency, s(r.fault.backAt - r.fault.downAt), ...probes.map((p) => s(r.perProbe[p])), s(r.worstMs)]),
  );
}
