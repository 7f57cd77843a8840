import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { WebhookDeps } from '../config/webhook-settings';
import type { Repos } from '../db/repos';
import type { Modality } from '../domain/modalities';
import type { AnomalySettings } from '../domain/spending-anomaly';
import type { Storage } from '../storage/types';
import { createAnomalyActivities } from './anomaly-detector';
import { createComparisonActivities } from './comparisons';
import { createCreditActivities } from './credits';
import { createEventRetentionActivities } from './event-retention';
import { createOutputRetentionActivities } from './output-retention';
import { createGenerationActivities } from './generations';
import type { ProviderRegistry } from './providers/registry';
import { createReconcilerActivities } from './reconciler';
import { createWebhookActivities } from './webhooks';
import type { PollHints } from './poll-hints';

export interface ActivityDeps {
  knex: Knex;
  repos: Repos;
  storage: Storage;
  providers: ProviderRegistry;
  callbackUrlFor?: (generationId: string, expiresAt: Date) => string;
  /** Providers' callbacks, which wake the poll of their job (worker/poll-hint-listener.ts). */
  pollHints?: PollHints;
  /** Per-modality caps on a provider's output files (domain/output-limits.ts without them). */
  outputCapsBytes?: Partial<Record<Modality, number>>;
  /** Provider output URLs on private addresses (ALLOW_PRIVATE_INPUT_URLS; tests, development). */
  allowPrivateOutputUrls?: boolean;
  /** How long recording a submitted provider job waits out a database outage (activities/submission.ts). */
  recordJobPatienceMs?: number;
  /** The reconciler asks Temporal whether a generation's workflow is still running. */
  temporal?: Client;
  /** Open generations the reconciler reads per page (500 without it; tests make it small). */
  reconcilerPageSize?: number;
  /** Signing secrets and delivery settings; without them webhook activities fail, saying so. */
  webhooks?: WebhookDeps;
  /** ANOMALY_FACTOR and ANOMALY_FLOOR_CREDITS; the defaults of decisions §4 without them. */
  anomaly?: AnomalySettings;
  /** EVENT_RETENTION_DAYS: how long the retention sweep keeps events (30 without it). */
  eventRetentionDays?: number;
}

/** Every activity, bound to its dependencies; tests pass a real database here. */
export function createActivities(deps: ActivityDeps) {
  const credits = createCreditActivities(deps);
  return {
    ...credits,
    ...createComparisonActivities(deps),
    ...createGenerationActivities(deps),
    ...createReconcilerActivities({ ...deps, refund: credits.refundCredits }),
    ...createWebhookActivities(deps),
    ...createAnomalyActivities(deps),
    ...createEventRetentionActivities(deps),
    ...createOutputRetentionActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
