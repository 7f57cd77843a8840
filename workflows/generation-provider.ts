import { CancellationScope, deprecatePatch, isCancellation, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { MODALITY_MODE } from '../domain/modalities';
import type { GenerationInput, ProviderOutcome } from './definitions';
import { mayFallBack, PROVIDER_RETRY } from './failures';
import type { GenerationState } from './generation-state';
import { stopProviderJob } from './generation-settlement';
import { upsertRunningOn } from './search-attribute-upserts';

// The provider phase of a generation (workflows/generation.ts): its routes in order (decisions §7),
// each a sync step (a local activity) or an async job (submitted and polled by one heartbeating
// activity, activities/generations/run-job.ts). Either records a queued provider job on the row, where a
// fallback or a settlement finds it.
//
// Each route's step is retried on retryable provider errors (with backoff, and at least the
// provider's Retry-After), and once they are spent the next route runs. A queued job left behind is
// cancelled first, so no two paid jobs of one generation ever run at once. A non-retryable error
// fails at once.

/** Runs the provider phase; past its budget the phase is cancelled and fails as `provider_timeout`. */
export function runWithinBudget<T>(budgetMs: number, fn: () => Promise<T>): Promise<T> {
  return CancellationScope.withTimeout(budgetMs, fn);
}

/** Each route in turn, while the one before failed in a way another provider may not. */
export async function runRoutes(input: GenerationInput, state: GenerationState): Promise<ProviderOutcome> {
  const count = Math.max(1, input.routes?.length ?? 1);
  for (let route = 0; ; route++) {
    try {
      return MODALITY_MODE[input.modality] === 'sync' ? await runSync(input, state, route) : await runAsync(input, state, route);
    } catch (err) {
      if (route + 1 >= count || isCancellation(err) || !mayFallBack(err)) throw err;
      const stopped = await CancellationScope.nonCancellable(() => stopProviderJob(input, state));
      // A job this route queued that could not be cancelled may still be running, and paid for:
      // the next route would be a second paid job at the same time, so the generation ends here.
      if (!stopped) {
        deprecatePatch('fallback-after-stop');
        throw err;
      }
    }
  }
}

async function runSync(input: GenerationInput, state: GenerationState, route: number): Promise<ProviderOutcome> {
  const local = proxyLocalActivities<Activities>({ startToCloseTimeout: input.timeouts.providerStartToCloseMs, retry: PROVIDER_RETRY });
  upsertRunningOn(input.routes?.[route]?.provider);
  state.jobMayRun({ route, sync: true });
  const outcome = await local.runProvider(input, route);
  state.jobEnded();
  return outcome;
}

async function runAsync(input: GenerationInput, state: GenerationState, route: number): Promise<ProviderOutcome> {
  const remote = proxyActivities<Activities>({
    startToCloseTimeout: input.timeouts.asyncJobTimeoutMs,
    heartbeatTimeout: input.timeouts.heartbeatTimeoutMs,
    retry: PROVIDER_RETRY,
  });
  // One activity submits and polls: a workflow task and an activity task fewer per job than
  // submitting and polling in two. A provider's callback wakes its poll (activities/poll-hints.ts);
  // restarting this activity while it submits could submit twice, so nothing here interrupts it.
  deprecatePatch('one-provider-activity');
  upsertRunningOn(input.routes?.[route]?.provider);
  state.jobMayRun({ route, sync: false });
  const outcome = await remote.runProviderJob(input, route);
  state.jobEnded();
  return outcome;
}
