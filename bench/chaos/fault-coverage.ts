import type { Knex } from 'knex';
import type { FaultWindow } from '../lib/chaos-stack';
import type { ProbeOutcome } from '../lib/probe-trickle';
import { cutOffAnswers, FAULT_GRACE_MS, unavailableAnswers } from './answers';

// Whether each fault hit anything. A fault that found no work in flight, or that no request noticed
// (not one 503; for the API's own kill, not one request cut off mid-flight), tests nothing: a run
// where that happens proves nothing and is void, not green.

/** The generations that must be in flight (created, not yet finished) when each fault begins. */
export const MIN_IN_FLIGHT = 10;
/**
 * The same for a soak, which keeps only a few operations going at once (some of them cancels and
 * replays): a fault that finds one generation in flight still tests something there.
 */
export const MIN_IN_FLIGHT_SOAK = 1;

export interface FaultCoverage {
  fault: FaultWindow;
  /** Generations of the organization created before the fault began and not finished by then. */
  inFlight: number;
  /** 503 answers to requests in flight while it was down (or within FAULT_GRACE_MS after). */
  unavailable: number;
  /** Requests in flight then whose connection was cut (an API kill's; any other fault's are violations). */
  cutOff: number;
}

/** Counted from the database once the run has drained: created_at ≤ downAt < finished_at (or never finished). */
export async function faultCoverage(knex: Knex, organizationId: string, faults: FaultWindow[], answers: ProbeOutcome[]): Promise<FaultCoverage[]> {
  const unavailable = unavailableAnswers(answers, faults);
  const cutOff = cutOffAnswers(answers, faults);
  const out: FaultCoverage[] = [];
  for (const [i, fault] of faults.entries()) {
    const downAt = new Date(fault.downAt);
    const rows = await knex('generations')
      .where({ organization_id: organizationId })
      .where('created_at', '<=', downAt)
      .where((q) => void q.whereNull('finished_at').orWhere('finished_at', '>', downAt))
      .count<{ n: string }[]>({ n: '*' });
    out.push({ fault, inFlight: Number(rows[0]?.n ?? 0), unavailable: unavailable[i]!, cutOff: cutOff[i]! });
  }
  return out;
}

/** Why the run is void, one line per fault that hit nothing; empty when every fault counted. */
export function voidReasons(coverage: FaultCoverage[], minInFlight = MIN_IN_FLIGHT): string[] {
  const reasons: string[] = [];
  if (coverage.length === 0) reasons.push('no fault was injected');
  for (const c of coverage) {
    const at = `${c.fault.dependency} fault at ${new Date(c.fault.downAt).toISOString()}`;
    if (c.inFlight < minInFlight) reasons.push(`${at} found ${c.inFlight} generations in flight, fewer than ${minInFlight}`);
    if (c.fault.dependency === 'api') {
      if (c.cutOff === 0) reasons.push(`${at} cut off no request mid-flight`);
    } else if (c.unavailable === 0) reasons.push(`${at} produced no 503 (within its window and ${FAULT_GRACE_MS / 1000} s after)`);
  }
  return reasons;
}
