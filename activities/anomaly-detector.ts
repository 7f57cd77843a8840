import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { Repos } from '../db/repos';
import { createSpendRepo } from '../db/repos/spend';
import { creditsToUsd } from '../domain/pricing';
import { ANOMALY_WINDOW_MS, DEFAULT_ANOMALY_SETTINGS, baselineAverage, isSpendingAnomaly, spendPeriods, type AnomalySettings } from '../domain/spending-anomaly';
import { newId } from '../lib/ids';

// The anomaly detector's steps (workflows/anomaly-detector.ts, every minute from a Temporal
// Schedule). The sweep finds the organizations whose live spend in the last 10 minutes is above the
// floor, a cheap range scan; each of them is then judged against its own 7-day baseline, and one
// that trips is paused and gets its `usage.anomaly_detected` event in one transaction, so a pause
// never goes unannounced and a retried step never pauses or announces twice. The pause reaches
// every API process's principal cache like an operator's (migration 0003's trigger on
// organizations), and credit-consuming requests get 403 organization_paused from then on.

export const ANOMALY_EVENT = 'usage.anomaly_detected';

export interface AnomalyDeps {
  knex: Knex;
  repos: Repos;
  /** ANOMALY_FACTOR and ANOMALY_FLOOR_CREDITS; the defaults of decisions §4 without them. */
  anomaly?: AnomalySettings;
  /** The detector's "now"; tests move it to place spend inside or before the window. */
  clock?: () => Date;
}

export function createAnomalyActivities(deps: AnomalyDeps) {
  const { knex, repos } = deps;
  const settings = deps.anomaly ?? DEFAULT_ANOMALY_SETTINGS;
  const clock = deps.clock ?? (() => new Date());
  const spend = createSpendRepo(knex);

  return {
    /** Unpaused organizations whose live spend in the last 10 minutes is above the floor. */
    async findSpendingOrganizations(): Promise<string[]> {
      const end = clock();
      const period = { start: new Date(end.getTime() - ANOMALY_WINDOW_MS), end };
      return spend.organizationsSpendingAbove(period, settings.floorCredits);
    },

    /**
     * Judges one organization at the clock's now; pauses it and emits its event when its window's
     * spend is an anomaly. Returns whether this call paused it (false when it was already paused).
     */
    async checkSpendingAnomaly(organizationId: string): Promise<boolean> {
      const now = clock();
      return knex.transaction(async (trx) => {
        const org = await repos.organizations.findById(organizationId, trx);
        if (!org || org.paused) return false;
        const periods = spendPeriods(now, org.spend_watch_from);
        const windowSpend = await spend.liveSpend(organizationId, periods.window, trx);
        if (windowSpend <= settings.floorCredits) return false;
        const average = baselineAverage(await spend.liveSpend(organizationId, periods.baseline, trx));
        if (!isSpendingAnomaly({ windowSpend, baselineAverage: average, factor: settings.factor, floor: settings.floorCredits })) return false;
        // Guarded by `paused = false`: of two racing checks, one pauses and announces.
        if (!(await repos.organizations.pauseForAnomaly(organizationId, trx))) return false;
        const data = {
          organization_id: organizationId,
          window_spend_credits: windowSpend,
          window_spend_usd: creditsToUsd(windowSpend),
          baseline_average_credits: Math.round(average * 100) / 100,
          factor: settings.factor,
          floor_credits: settings.floorCredits,
          window_start: periods.window.start.toISOString(),
          window_end: periods.window.end.toISOString(),
          paused_at: now.toISOString(),
        };
        await repos.events.append(
          // One event per pause: the subject is the organization at the moment it was paused.
          { id: newId('evt'), organization_id: organizationId, environment: 'live', type: ANOMALY_EVENT, subject_id: `${organizationId}@${data.paused_at}`, data },
          trx,
        );
        Context.current().log.warn('paused an organization for a spending anomaly', data);
        return true;
      });
    },
  };
}
