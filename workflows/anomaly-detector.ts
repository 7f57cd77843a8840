import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Runs every minute from a Temporal Schedule (worker/anomaly-detector-schedule.ts): finds the
// organizations whose live spend in the last 10 minutes is above the floor, and judges each against
// its own 7-day baseline (activities/anomaly-detector.ts). One that trips is paused, with its
// `usage.anomaly_detected` event, in its own transaction.

const { findSpendingOrganizations, checkSpendingAnomaly } = proxyActivities<Activities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 5 },
});

/** Organizations judged at once: each check is a short transaction of its own. */
const CHECK_CONCURRENCY = 8;

export interface AnomalyDetectorResult {
  /** Organizations above the floor in the last 10 minutes. */
  candidates: number;
  /** Those this run paused. */
  paused: number;
}

export async function anomalyDetectorWorkflow(): Promise<AnomalyDetectorResult> {
  const candidates = await findSpendingOrganizations();
  let paused = 0;
  for (let i = 0; i < candidates.length; i += CHECK_CONCURRENCY) {
    const tripped = await Promise.all(candidates.slice(i, i + CHECK_CONCURRENCY).map((id) => checkSpendingAnomaly(id)));
    paused += tripped.filter(Boolean).length;
  }
  return { candidates: candidates.length, paused };
}
