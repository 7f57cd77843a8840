// The spending anomaly rule (decisions §4) and its time arithmetic. Pure: the detector
// (activities/anomaly-detector.ts) reads the sums from Postgres and asks this module what they mean.
//
// Spend is live spend only (test keys are never charged) and is counted per generation as
// reserved − refunded − released, by the generation's creation time: a reservation in flight counts
// in full, so a burst is seen while it runs, not only once it is charged.

export const DEFAULT_ANOMALY_FACTOR = 10;
export const DEFAULT_ANOMALY_FLOOR_CREDITS = 50_000;

export const ANOMALY_WINDOW_MS = 10 * 60 * 1000;
export const ANOMALY_BASELINE_MS = 7 * 24 * 60 * 60 * 1000;
/** How many 10-minute windows the baseline's 7 days hold (1,008). */
export const BASELINE_WINDOWS = ANOMALY_BASELINE_MS / ANOMALY_WINDOW_MS;

export interface AnomalySettings {
  /** ANOMALY_FACTOR: how many times its usual 10-minute spend an organization may spend. */
  factor: number;
  /** ANOMALY_FLOOR_CREDITS: a window at or below this never trips, whatever the baseline. */
  floorCredits: number;
}

export const DEFAULT_ANOMALY_SETTINGS: AnomalySettings = {
  factor: DEFAULT_ANOMALY_FACTOR,
  floorCredits: DEFAULT_ANOMALY_FLOOR_CREDITS,
};

export interface SpendPeriods {
  /** The window whose spend is judged: the last 10 minutes, cut short by the watch start. */
  window: { start: Date; end: Date };
  /** The 7 days before the (uncut) window: what "usual" means. */
  baseline: { start: Date; end: Date };
}

/**
 * The periods to sum at `now`. `watchFrom` is when an operator last unpaused the organization
 * (`organizations.spend_watch_from`): spend from before it was already judged, and the operator
 * chose to let it stand, so it never trips the detector a second time.
 */
export function spendPeriods(now: Date, watchFrom: Date | null): SpendPeriods {
  const nominalStart = new Date(now.getTime() - ANOMALY_WINDOW_MS);
  const start = watchFrom && watchFrom > nominalStart ? watchFrom : nominalStart;
  return {
    window: { start: start > now ? now : start, end: now },
    baseline: { start: new Date(nominalStart.getTime() - ANOMALY_BASELINE_MS), end: nominalStart },
  };
}

/** The average spend of one 10-minute window over the baseline's 7 days. */
export function baselineAverage(baselineSpend: number): number {
  return baselineSpend / BASELINE_WINDOWS;
}

/** Above the floor and above factor × the usual: both must hold (strictly). */
export function isSpendingAnomaly(args: { windowSpend: number; baselineAverage: number; factor: number; floor: number }): boolean {
  return args.windowSpend > args.floor && args.windowSpend > args.factor * args.baselineAverage;
}
