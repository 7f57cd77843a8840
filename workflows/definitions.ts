import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Environment } from '../domain/generation-status';
import type { Modality } from '../domain/modalities';
import type { Plan } from '../domain/plans';
import type { PricingSnapshot } from '../domain/pricing';
import type { GenerationTimeouts } from '../domain/generation-timeouts';
import type { JobInput, ProviderUsage } from '../activities/providers/types';
import type { ProviderRoute } from '../domain/providers';

// The contract between the API, the workflows and the worker: names, inputs and results.
// Imported by the API and the worker; it holds no logic. Inputs and results are domain types, not
// database rows: they live on in Temporal's histories, which outlast any schema.

export { DEFAULT_GENERATION_TIMEOUTS, type GenerationTimeouts } from '../domain/generation-timeouts';

export interface GenerationInput {
  generationId: string;
  organizationId: string;
  apiKeyId: string;
  environment: Environment;
  modality: Modality;
  model: string;
  prompt: string;
  /** Request parameters as recorded on the generation. */
  params: Record<string, unknown>;
  /** Credits to reserve; 0 for simulated output (domain/pricing.ts admissionCredits). */
  estimatedCredits: number;
  timeouts: GenerationTimeouts;
  /** Set for seeded requests: a later identical request is served from this one (decisions §4). */
  cacheKey?: string;
  /** The plan the estimate was priced on; usage-billed jobs (chat) are charged on it too. */
  plan: Plan;
  /**
   * The price the estimate was made at (domain/pricing-snapshot.ts), recorded with the reservation;
   * the capture charges at it, whatever the catalog says by then. Absent in workflows started before
   * snapshots: those are charged at the worker's catalog, as they always were.
   */
  pricing?: PricingSnapshot;
  /**
   * Epoch ms after which the job may no longer be admitted: the API has told the caller it failed
   * (503), so a worker that only gets to it later must not charge for it or run it.
   */
  admitBy?: number;
  /**
   * The month (`YYYY-MM-01`, UTC, by the API's clock when the request arrived) whose key budget the
   * reservation counts against. Absent in workflows started before budgets: the database's month.
   */
  budgetPeriod?: string;
  /** Input files the API fetched and stored, by name (`image`, `audio`, `video`). */
  inputs?: Record<string, JobInput>;
  /**
   * The routes to try, in order (decisions §7), as the API resolved them when the request arrived
   * (MODEL_ROUTES, credentials, BYOK). Absent in workflows started before routes: the one provider
   * the worker's registry picks.
   */
  routes?: ProviderRoute[];
  /**
   * Set by the API's eager sync start (API_EMBEDDED_WORKER): no `admit` update comes, the workflow
   * reserves as it starts, and a `rejected` result sends the API to the claim and the wallet for why.
   */
  admitAtStart?: boolean;
  /**
   * Set for a comparison's child: its comparison's admission already recorded it and reserved its
   * share (db/admit-comparison.ts), so it starts admitted and never reserves on its own.
   */
  comparisonId?: string;
  /**
   * The caller's `Cancel-After` deadline (epoch ms): a job not done by then is canceled
   * (`deadline_exceeded`), its provider job stopped and its reservation refunded. Absent: none.
   */
  deadlineAt?: number;
}

export interface ComparisonInput {
  comparisonId: string;
  organizationId: string;
  apiKeyId: string;
  environment: Environment;
  modality: Modality;
  prompt: string;
  paramsShared: Record<string, unknown>;
  /** One per model, in `models` order, each a complete generation (`comparisonId` set). */
  children: GenerationInput[];
  /** As for a generation: after this (epoch ms) the comparison may no longer be admitted. */
  admitBy?: number;
  /** As for a generation: the month whose key budget the reservations count against. */
  budgetPeriod?: string;
  /** The `Cancel-After` deadline (epoch ms) every child also carries; shown on the comparison. */
  deadlineAt?: number;
}

/** How a comparison's workflow ended: its verdict, `open` if a child was left to the reconciler, or refused. */
export type ComparisonOutcome = 'succeeded' | 'partial' | 'failed' | 'open' | 'rejected';

/** One file a provider produced, already in storage. */
export interface GeneratedFile {
  id: string;
  position: number;
  storageKey: string;
  mime: string;
  width?: number;
  height?: number;
  durationS?: string;
}

/** What a provider produced, once its files are in storage. */
export interface ProviderOutcome {
  outputs: GeneratedFile[];
  text?: string;
  usage?: ProviderUsage;
  /** The route that produced it (absent before routes existed). */
  served?: ProviderRoute;
}

export type Submission = { state: 'done'; outcome: ProviderOutcome } | { state: 'pending'; providerJobId: string };

export type Admission =
  | { admitted: true }
  | { admitted: false; code: 'insufficient_credits'; availableCredits: number }
  | { admitted: false; code: 'admission_timeout' }
  | { admitted: false; code: 'budget_exceeded'; budgetUsd: number | null; spentUsd: number };

export type GenerationOutcome = 'succeeded' | 'failed' | 'canceled' | 'rejected';

/** Why an admitted generation failed, as recorded on it. */
export interface GenerationFailure {
  errorCode: string;
  errorMessage: string;
  /** Whose failure it was: the provider's, or ours (storage, a lost input, a bug). */
  errorSource?: 'provider' | 'gateway';
  /** Whether the same request could succeed if tried again later. */
  retryable?: boolean;
}

/**
 * What APIs before poll hints sent a generation on a provider's callback. No workflow waits on it
 * since `one-provider-activity` (its poll wakes on a poll hint, activities/poll-hints.ts); it names
 * the signal in the recorded history `generation-video-callback-succeeded`.
 */
export const providerCallbackSignal = defineSignal('providerCallback');

/** Update-with-Start target: reserves credits and answers the caller synchronously. */
export const admitUpdate = defineUpdate<Admission>('admit');

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** The gap before each attempt (WEBHOOK_RETRY_SCHEDULE), the first usually 0. */
  scheduleMs: number[];
  /** How long the receiver has to answer 2xx (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /**
   * A run restarted by the relay's sweep after its predecessor closed unended: the first attempt
   * not recorded yet, and what is left of the gap before it.
   */
  resume?: { number: number; gapMs: number };
}

/** A bulk recovery's run (workflows/webhook-recovery.ts); `after`: the last delivery a previous run replayed. */
export interface WebhookRecoveryInput {
  recoveryId: string;
  after: string | null;
  /** Deliveries per page, and pages per run before it continues as new (domain/webhook-recovery.ts). */
  paging: WebhookRecoveryPaging;
}

export interface WebhookRecoveryPaging {
  pageSize: number;
  pagesPerRun: number;
}

/** `stopped`: the delivery was ended from outside (its subscription deleted) before it succeeded. */
export type WebhookDeliveryOutcome = 'succeeded' | 'failed' | 'exhausted' | 'stopped';
