import { getWalletBalance } from '../../db/ledger';
import { spentInRequestMonth } from '../../domain/budget-period';
import { CREDITS_PER_USD, creditsToUsd } from '../../domain/pricing';
import { classifyDependencyError } from '../../lib/dependency-errors';
import type { Admission } from '../../workflows/definitions';
import type { ApiDeps } from '../context';
import { checkDependencies, DEPENDENCY_RETRY_AFTER_S, dependencyUnavailable } from '../dependency-health';
import { ApiError } from '../errors';

/**
 * Once the sync window has passed, the row is looked at 25 ms after, then at growing intervals up
 * to 200 ms: the answer usually comes within one or two looks, and a wait that lasts (a busy
 * worker, a slow Temporal) should not cost Postgres a read every 25 ms for its whole length.
 */
const ADMISSION_POLL_MS = { first: 25, factor: 1.5, max: 200 };
/**
 * When the answer comes with the workflow task that reserves (an async generation, a comparison),
 * it follows the row's commit by a few ms, so earlier looks at the row mostly cost Postgres a read
 * each, several per request under load (see docs/benchmarks.md, bench:async). The row still answers one held up, e.g.
 * by a worker that died after committing, whose task Temporal hands to another after 10 s.
 */
export const ANSWER_WITH_ADMISSION_FIRST_LOOK_MS = 1_000;
/** Without an answer or a row by then, the API asks whether Temporal is there at all. */
const TEMPORAL_PROBE_AFTER_MS = 3_000;
const TEMPORAL_PROBE_TIMEOUT_MS = 1_500;

/** How an admission wait ended: the workflow's answer, or the admitted row (and what it holds) seen first. */
export type AdmissionWait<Found> = { kind: 'answered'; admission: Admission } | { kind: 'row'; found: Found };

export interface AdmissionWaitArgs<Found> {
  /** The id the admission is claimed under (db/repos/admission-claims.ts): the generation's or comparison's. */
  claimId: string;
  organizationId: string;
  /** The key and the credits it asked for: a refusal the API only finds afterwards names the budget if that was it. */
  apiKeyId: string;
  neededCredits: number;
  /** The month (`YYYY-MM-01`) the request's reservation counts in (domain/budget-period.ts). */
  budgetPeriod: string;
  admitBy: number;
  answer: Promise<Admission>;
  syncWindowMs: number;
  /** No look at the row before this either (ANSWER_WITH_ADMISSION_FIRST_LOOK_MS); default none. */
  firstLookAfterMs?: number;
  stopWaiting: () => void;
  /** The row the admission statement writes, with what the answer shows; undefined until admitted. */
  findAdmitted: () => Promise<Found | undefined>;
}

/**
 * Waits for a generation's (or comparison's) admission: the `admit` update's answer, or (once
 * `syncWindowMs` and `firstLookAfterMs` have passed) its row, whichever comes first; the row is written in the reservation's own
 * statement, so a row means "admitted". Gives up when no worker admitted it by `admitBy`, or when
 * Temporal does not answer: it then claims the admission for the API (db/repos/admission-claims.ts),
 * which no reservation can commit after, so its 503 "nothing was charged" is true. A worker that
 * claimed it first decided it: the answer is then the row, or the wallet's refusal.
 */
export async function awaitAdmission<Found>(
  deps: Pick<ApiDeps, 'knex' | 'repos' | 'temporal' | 'admissionTimeoutMs'>,
  args: AdmissionWaitArgs<Found>,
): Promise<AdmissionWait<Found>> {
  const startedAt = Date.now();
  const firstLookAt = startedAt + Math.max(args.syncWindowMs, args.firstLookAfterMs ?? 0);
  const probeAt = startedAt + TEMPORAL_PROBE_AFTER_MS;
  let probed = false;
  let pollMs = ADMISSION_POLL_MS.first;
  for (;;) {
    // Before the first look (the end of a sync caller's window, who waits for the result, or
    // firstLookAfterMs) only the answer counts; the one exception is the Temporal probe, a few seconds in.
    const now = Date.now();
    let nextLook: number;
    if (now >= firstLookAt) {
      nextLook = now + pollMs;
      pollMs = Math.min(ADMISSION_POLL_MS.max, Math.round(pollMs * ADMISSION_POLL_MS.factor));
    } else nextLook = probed ? firstLookAt : Math.min(firstLookAt, probeAt);
    const settled = await settleWithin(args.answer, Math.max(0, nextLook - now));
    if (settled.kind === 'answered') return settled;
    if (settled.kind === 'failed') {
      if (classifyDependencyError(settled.error) !== 'temporal') throw settled.error;
      return giveUp(deps, args, () => dependencyUnavailable('temporal'));
    }
    if (!probed && Date.now() >= probeAt) {
      probed = true;
      // A row means a worker admitted it, so Temporal was there; otherwise ask it.
      const admitted = await args.findAdmitted();
      const health = admitted ? undefined : await checkDependencies(deps, TEMPORAL_PROBE_TIMEOUT_MS);
      if (health && health.temporal !== 'ok') return giveUp(deps, args, () => dependencyUnavailable('temporal'));
    }
    if (Date.now() < firstLookAt) continue;
    const found = await args.findAdmitted();
    if (found) {
      args.stopWaiting();
      return { kind: 'row', found };
    }
    if (Date.now() >= args.admitBy) return giveUp(deps, args, () => noWorker(deps.admissionTimeoutMs));
  }
}

/** `reason` is built only when it is the answer (a dependency's 503 is counted as it is built). */
async function giveUp<Found>(deps: Pick<ApiDeps, 'repos' | 'knex'>, args: AdmissionWaitArgs<Found>, reason: () => ApiError): Promise<AdmissionWait<Found>> {
  args.stopWaiting();
  if (await deps.repos.admissionClaims.abandon(args.claimId, args.admitBy)) throw reason();
  // A worker decided first: admitted (the row, committed with its claim), or refused by the key's
  // budget or by the wallet.
  const found = await args.findAdmitted();
  if (found) return { kind: 'row', found };
  return { kind: 'answered', admission: await workersRefusal(deps, args) };
}

/**
 * Why a workflow that reserved as it started (an eager sync start) refused: a deadline nobody
 * claimed is the API's to claim, and its answer a 503 with nothing charged; a worker's claim means
 * the key's budget or the wallet refused.
 */
export async function refusalOf(deps: Pick<ApiDeps, 'repos' | 'knex'>, args: RefusalArgs): Promise<Admission> {
  if (await deps.repos.admissionClaims.abandon(args.claimId, args.admitBy)) return { admitted: false, code: 'admission_timeout' };
  return workersRefusal(deps, args);
}

export type RefusalArgs = Pick<AdmissionWaitArgs<unknown>, 'claimId' | 'organizationId' | 'apiKeyId' | 'neededCredits' | 'budgetPeriod' | 'admitBy'>;

/** The refusal itself is not kept, so it is told from the key's and the wallet's state now. */
async function workersRefusal(deps: Pick<ApiDeps, 'repos' | 'knex'>, args: RefusalArgs): Promise<Admission> {
  // The key's row holds the last month it spent in: last month's spend is not this month's refusal.
  const budget = await deps.repos.apiKeys.budgetOf(args.apiKeyId);
  const spent = budget ? spentInRequestMonth(budget, args.budgetPeriod) : 0;
  if (budget?.budgetUsd != null && spent + args.neededCredits > Math.round(budget.budgetUsd * CREDITS_PER_USD)) {
    return { admitted: false, code: 'budget_exceeded', budgetUsd: budget.budgetUsd, spentUsd: creditsToUsd(spent) };
  }
  const balance = await getWalletBalance(deps.knex, args.organizationId);
  return { admitted: false, code: 'insufficient_credits', availableCredits: balance.availableCredits };
}

export function noWorker(timeoutMs: number): ApiError {
  return new ApiError(
    'provider_unavailable',
    `No worker took this job within ${Math.round(timeoutMs / 1000)} s, so it was not started and nothing was charged. Retry later (with the same Idempotency-Key, if you sent one).`,
    // Every 503 says when to come back (decisions §2), this one as the dependency outages do.
    { headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_S) } },
  );
}

type Settled<T> = { kind: 'answered'; admission: T } | { kind: 'failed'; error: unknown } | { kind: 'waiting' };

async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'waiting' }), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (admission): Settled<T> => ({ kind: 'answered', admission }),
        (error: unknown): Settled<T> => ({ kind: 'failed', error }),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
