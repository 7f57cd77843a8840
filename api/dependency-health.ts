import type { Client } from '@temporalio/client';
import type { Dependency } from '../lib/dependency-errors';
import { metrics } from '../observability/metrics';
import type { ApiDeps } from './context';
import { ApiError } from './errors';

// When Postgres or Temporal cannot be reached the API answers fast with 503 service_unavailable
// and Retry-After (decisions §2): a caller told "retry in 5 s" does better than one left hanging,
// and the API's own requests do not pile up behind a dead connection.

/** What a client is told to wait (Retry-After, seconds) while a dependency is down. */
export const DEPENDENCY_RETRY_AFTER_S = 5;

/** The deadline of one Temporal RPC outside the long generation wait (cancel, signal, …). */
export const TEMPORAL_RPC_TIMEOUT_MS = 5_000;

export type DependencyStatus = 'ok' | 'unavailable';
export type DependencyHealth = Record<Dependency, DependencyStatus>;

const UNREACHABLE: Record<Dependency, string> = {
  postgres: 'The database is unreachable',
  temporal: 'The workflow engine (Temporal) is unreachable',
};

/** The 503 answered while `which` is unreachable; counted here, so build it only to throw it. */
export function dependencyUnavailable(which: Dependency): ApiError {
  metrics.dependencyUnavailable.inc({ dependency: which });
  return new ApiError(
    'service_unavailable',
    `${UNREACHABLE[which]}, so the service cannot handle this request right now. Retry in ${DEPENDENCY_RETRY_AFTER_S} s, with the same Idempotency-Key if you sent one.`,
    { headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_S) } },
  );
}

/**
 * Asks both dependencies at once, each under its own deadline, so the answer never takes much
 * longer than `timeoutMs` however they fail: what does not answer in time (a frozen server, a pool
 * whose connections all hang, gRPC retrying a refused connection) counts as unavailable.
 */
export async function checkDependencies(deps: Pick<ApiDeps, 'knex' | 'temporal'>, timeoutMs: number): Promise<DependencyHealth> {
  const [postgres, temporal] = await Promise.all([
    probe(() => deps.knex.raw('select 1'), timeoutMs),
    probe(() => deps.temporal.withDeadline(Date.now() + timeoutMs, () => deps.temporal.workflowService.getSystemInfo({})), timeoutMs),
  ]);
  return { postgres, temporal };
}

/**
 * Runs Temporal RPCs under a deadline. The gRPC deadline cancels a call the server never answers,
 * but the client's retry interceptor can sleep past it between attempts on a refused connection,
 * so the wait is also capped here: past `timeoutMs` the answer is 503 and the call is abandoned.
 */
export function withTemporalDeadline<T>(temporal: Client, fn: () => Promise<T>, timeoutMs = TEMPORAL_RPC_TIMEOUT_MS): Promise<T> {
  return settleWithin(temporal.withDeadline(Date.now() + timeoutMs, fn), timeoutMs, () => dependencyUnavailable('temporal'));
}

async function probe(check: () => PromiseLike<unknown>, timeoutMs: number): Promise<DependencyStatus> {
  try {
    await settleWithin(Promise.resolve(check()), timeoutMs, () => new Error(`no answer within ${timeoutMs} ms`));
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

function settleWithin<T>(work: Promise<T>, timeoutMs: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
