import type { GenerationRow, NewGeneration, ProviderAttempt } from '../db/repos/generations';
import { metrics } from '../observability/metrics';

// What the activities report to the metric catalog (observability/metrics.ts). Each function is
// called once a statement has written what it counts (a terminal status, a ledger row), never on a
// retry that found the work done, so the counters equal what the database shows. The catalog is
// imported, not injected through createActivities' deps: a process has one registry, which the
// worker's /metrics serves, exactly as every activity shares the one logger of its Context.

/** A `reserve` ledger row written (db/ledger.ts calls this only for a statement that wrote it). */
export function countReserved(gen: Pick<NewGeneration, 'modality' | 'environment' | 'reserved_credits'>): void {
  metrics.creditsReserved.inc({ modality: gen.modality, environment: gen.environment }, gen.reserved_credits);
}

/** A comparison's reservation (one per child, written by one statement). */
export function countComparisonReserved(modality: string, environment: string, credits: number): void {
  metrics.creditsReserved.inc({ modality, environment }, credits);
}

/** A capture written: `charged` spent, the rest of the reservation released (refunded). */
export function countCaptured(gen: GenerationRow): void {
  const labels = { modality: gen.modality, environment: gen.environment };
  metrics.creditsCharged.inc(labels, gen.charged_credits);
  const released = gen.reserved_credits - gen.charged_credits;
  if (released > 0) metrics.creditsRefunded.inc(labels, released);
}

/** A refund written: the whole reservation back. */
export function countRefunded(gen: GenerationRow): void {
  metrics.creditsRefunded.inc({ modality: gen.modality, environment: gen.environment }, gen.reserved_credits);
}

/**
 * A generation that this statement moved to its terminal status: the generation, its times, and
 * its provider calls (its provenance, complete once it is terminal) with the fallbacks between them.
 */
export function countFinished(gen: GenerationRow): void {
  const status = gen.status as 'succeeded' | 'failed' | 'canceled';
  const attempts: ProviderAttempt[] = gen.attempts ?? [];
  // The provider that served it, else the last one asked (a sync call records no job); `none`: never asked.
  const final = gen.provider ?? attempts.at(-1)?.provider;
  metrics.generationsFinished.inc({ modality: gen.modality, model: gen.model, provider: final ?? 'none', status });
  const finishedAt = gen.finished_at ?? new Date();
  metrics.generationDuration.observe({ modality: gen.modality, status }, seconds(gen.created_at, finishedAt));
  if (gen.started_at) metrics.generationQueueWait.observe({ modality: gen.modality }, seconds(gen.created_at, gen.started_at));
  for (const attempt of attempts) {
    metrics.providerAttempts.inc({ provider: attempt.provider, modality: gen.modality, outcome: attemptOutcome(attempt) });
  }
  attempts.forEach((attempt, i) => {
    const previous = attempts[i - 1];
    if (previous && previous.provider !== attempt.provider) {
      metrics.providerFallbacks.inc({ modality: gen.modality, from_provider: previous.provider, to_provider: attempt.provider });
    }
  });
  const onFinal = attempts.filter((a) => a.provider === final);
  if (final && onFinal.length > 0) {
    metrics.generationProviderTime.observe({ modality: gen.modality, provider: final }, onFinal.reduce((ms, a) => ms + a.duration_ms, 0) / 1000);
  }
}

/** Fetching, checking and storing one job's outputs. */
export function observeIngest(modality: string, startedAt: number): void {
  metrics.generationIngestTime.observe({ modality }, (performance.now() - startedAt) / 1000);
}

function attemptOutcome(attempt: ProviderAttempt): 'succeeded' | 'failed' | 'timed_out' | 'canceled' {
  return attempt.outcome === 'failed' && attempt.error_code === 'provider_timeout' ? 'timed_out' : attempt.outcome;
}

function seconds(from: Date, to: Date): number {
  return Math.max(0, (new Date(to).getTime() - new Date(from).getTime()) / 1000);
}
