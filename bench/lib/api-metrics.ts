import { scrape, type Sample } from '../../test/helpers/prometheus-text';

// What the issue-40 benchmarks read from an API's own GET /metrics (API_METRICS_PORT) around a
// measured round: how many sync workflow starts were eager
// (generation_service_workflow_starts_total{eager="true"|"false"}, counted by the eager start path
// once it exists), the process's resident memory (prom-client's process_resident_memory_bytes) and
// its event-loop delay p99 (nodejs_eventloop_lag_p99_seconds: prom-client resets its histogram at
// every scrape, so a scrape right before a round and one right after give the round's p99).

const STARTS = 'generation_service_workflow_starts_total';

export interface ApiRoundMetrics {
  /** Starts counted in the round, by eager="true"/"false"; undefined: the API counts no such metric (no eager start path yet). */
  starts?: { eager: number; notEager: number };
  rssBytes: number;
  eventLoopP99Ms: number;
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);

const gauge = (samples: Sample[], name: string) => {
  const found = samples.find((s) => s.name === name);
  if (!found) throw new Error(`the API's /metrics has no ${name}`);
  return found.value;
};

/** Scrapes before a round; `after()` scrapes again and answers the round's figures. */
export async function apiRound(metricsUrl: string): Promise<{ after(): Promise<ApiRoundMetrics> }> {
  const before = await scrape(metricsUrl);
  return {
    async after() {
      const now = await scrape(metricsUrl);
      const counted = now.some((s) => s.name === STARTS);
      return {
        ...(counted && {
          starts: {
            eager: sum(now, STARTS, { eager: 'true' }) - sum(before, STARTS, { eager: 'true' }),
            notEager: sum(now, STARTS, { eager: 'false' }) - sum(before, STARTS, { eager: 'false' }),
          },
        }),
        rssBytes: gauge(now, 'process_resident_memory_bytes'),
        eventLoopP99Ms: gauge(now, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      };
    },
  };
}

/** The share of eager starts over rounds, as a reader reads it; n/a when no round counted any. */
export function eagerShare(rounds: ApiRoundMetrics[]): { text: string; share?: number } {
  const counted = rounds.filter((r) => r.starts !== undefined);
  if (counted.length === 0) return { text: 'n/a (no eager start yet)' };
  const eager = counted.reduce((a, r) => a + r.starts!.eager, 0);
  const all = counted.reduce((a, r) => a + r.starts!.eager + r.starts!.notEager, 0);
  if (all === 0) return { text: 'n/a (no sync start counted)' };
  return { text: `${((eager / all) * 100).toFixed(1)} % (${eager} of ${all} starts)`, share: eager / all };
}
