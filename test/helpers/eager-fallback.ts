import assert from 'node:assert/strict';
import { waitFor } from './http';
import { deltaBy, scrape, type Sample } from './prometheus-text';

// Filling an API's own sync worker (API_EMBEDDED_WORKER) until a start falls back to the queue:
// slow sync jobs, sent one after another, each counted on the API's /metrics before the next, until
// one is counted eager="false". Shared by the test stack's and the production topology's test.

const STARTS = 'generation_service_workflow_starts_total';

/** Sends `send(i)` until a start is not eager; at most `slots` + 1 jobs. Returns the jobs' answers (still coming) and the starts counted. */
export async function startUntilFallback<T>(opts: {
  metricsUrl: string;
  slots: number;
  send(i: number): Promise<T>;
}): Promise<{ jobs: Promise<T>[]; starts: Record<string, number> }> {
  const before: Sample[] = await scrape(opts.metricsUrl);
  const jobs: Promise<T>[] = [];
  let starts: Record<string, number> = {};
  while ((starts['kind=generation,eager=false'] ?? 0) === 0) {
    assert.ok(jobs.length <= opts.slots, `a start beyond the ${opts.slots} slots was not eager: ${JSON.stringify(starts)}`);
    jobs.push(opts.send(jobs.length));
    starts = await waitFor(
      async () => {
        const now = deltaBy(before, await scrape(opts.metricsUrl), STARTS, ['kind', 'eager']);
        return Object.values(now).reduce((a, b) => a + b, 0) === jobs.length && now;
      },
      10_000,
      'the start to be counted',
    );
  }
  assert.ok((starts['kind=generation,eager=true'] ?? 0) >= 1, `the first start was eager: ${JSON.stringify(starts)}`);
  return { jobs, starts };
}
