import { RequestTimeoutError } from './http-client';

// A steady trickle of requests that records every answer: while a dependency is down, what the
// API says (and whether it says anything at all within the deadline), and when it is back, how
// soon the first request succeeds. Requests are fired on the clock, not one after another, so a
// request that hangs does not hide the answers of the ones behind it.

export interface Probe {
  name: string;
  send(timeoutMs: number): Promise<{ status: number; body: string }>;
  /** Sent on every nth tick only (default 1: every tick), for a probe that costs more. */
  everyTicks?: number;
}

export interface ProbeOutcome {
  probe: string;
  /** Date.now() when it was sent. */
  startedAt: number;
  ms: number;
  /** 0 when there was no HTTP answer; see `failure`. */
  status: number;
  /** The error code of an error answer. */
  code?: string;
  /** No answer within the deadline, or the connection failed. */
  failure?: 'hang' | 'connection';
  /** The error of a failure, or the body of a 5xx answer. */
  detail?: string;
  /** The id in a 2xx answer's body (a created generation). */
  id?: string;
}

function parse(body: string): { code?: string; id?: string } {
  try {
    const json = JSON.parse(body) as { id?: unknown; error?: { code?: unknown } };
    return {
      code: typeof json.error?.code === 'string' ? json.error.code : undefined,
      id: typeof json.id === 'string' ? json.id : undefined,
    };
  } catch {
    return {};
  }
}

export function startTrickle(probes: Probe[], opts: { everyMs: number; timeoutMs: number; maxDurationMs: number }) {
  const outcomes: ProbeOutcome[] = [];
  const inFlight = new Set<Promise<void>>();
  const began = Date.now();

  const fire = (probe: Probe) => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const done = probe.send(opts.timeoutMs).then(
      (res) => {
        const { code, id } = parse(res.body);
        outcomes.push({
          probe: probe.name,
          startedAt,
          ms: performance.now() - t0,
          status: res.status,
          code,
          id: res.status < 300 ? id : undefined,
          detail: res.status >= 500 ? res.body.slice(0, 300) : undefined,
        });
      },
      (err: Error) => {
        const failure = err instanceof RequestTimeoutError ? 'hang' : 'connection';
        outcomes.push({ probe: probe.name, startedAt, ms: performance.now() - t0, status: 0, failure, detail: err.message });
      },
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };

  let tick = 0;
  const timer = setInterval(() => {
    // Bounded in time even if nobody calls stop().
    if (Date.now() - began > opts.maxDurationMs) return clearInterval(timer);
    for (const probe of probes) if (tick % (probe.everyTicks ?? 1) === 0) fire(probe);
    tick++;
  }, opts.everyMs);

  return {
    outcomes,
    /** Stops sending and waits for the requests still in flight (each bounded by the deadline). */
    async stop(): Promise<ProbeOutcome[]> {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return outcomes;
    },
  };
}

/** Milliseconds from `since` to the answer of the first 2xx of `probe` sent at or after it (and before `until`). */
export function recoveryMs(outcomes: ProbeOutcome[], probe: string, since: number, until = Number.POSITIVE_INFINITY): number | undefined {
  const answeredAt = outcomes.filter((o) => o.probe === probe && o.startedAt >= since && o.startedAt < until && o.status >= 200 && o.status < 300).map((o) => o.startedAt + o.ms);
  return answeredAt.length === 0 ? undefined : Math.min(...answeredAt) - since;
}
