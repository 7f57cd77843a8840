import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Environment } from '../domain/generation-status';
import type { Modality } from '../domain/modalities';
import type { Plan } from '../domain/plans';
import type { OutputRow } from '../db/repos/generations';
import type { JobInput, ProviderUsage } from '../activities/providers/types';

// The contract between the API, the workflows and the worker: names, inputs and results.
// Imported by the API and the worker; it holds no logic.

export interface GenerationTimeouts {
  /** Longest a single provider attempt may take (sync modalities: the whole job). */
  providerStartToCloseMs: number;
  /** Async modalities: longest the provider may take to finish a submitted job. */
  asyncJobTimeoutMs: number;
  /** Async modalities: a polling worker that stays silent this long is presumed dead. */
  heartbeatTimeoutMs: number;
}

export const DEFAULT_GENERATION_TIMEOUTS: GenerationTimeouts = {
  providerStartToCloseMs: 10 * 60 * 1000,
  asyncJobTimeoutMs: 60 * 60 * 1000,
  heartbeatTimeoutMs: 30 * 1000,
};

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
  /** Credits to reserve; 0 for sandbox keys. */
  estimatedCredits: number;
  timeouts: GenerationTimeouts;
  /** Set for seeded requests: a later identical request is served from this one (decisions §4). */
  cacheKey?: string;
  /** The plan the estimate was priced on; usage-billed jobs (chat) are charged on it too. */
  plan: Plan;
  /**
   * Epoch ms after which the job may no longer be admitted: the API has told the caller it failed
   * (503), so a worker that only gets to it later must not charge for it or run it.
   */
  admitBy?: number;
  /** Input files the API fetched and stored, by name (`image`, `audio`, `video`). */
  inputs?: Record<string, JobInput>;
}

/** What a provider produced, once its files are in storage. */
export interface ProviderOutcome {
  outputs: Omit<OutputRow, 'generation_id'>[];
  text?: string;
  usage?: ProviderUsage;
}

export type Submission = { state: 'done'; outcome: ProviderOutcome } | { state: 'pending'; providerJobId: string };

export type Admission =
  | { admitted: true }
  | { admitted: false; code: 'insufficient_credits'; availableCredits: number }
  | { admitted: false; code: 'admission_timeout' };

export type GenerationOutcome = 'succeeded' | 'failed' | 'canceled' | 'rejected';

/** A provider's callback ("your job changed"): poll it now instead of at the next interval. */
export const providerCallbackSignal = defineSignal('providerCallback');

/** Update-with-Start target: reserves credits and answers the caller synchronously. */
export const admitUpdate = defineUpdate<Admission>('admit');

/** The benchmark's floor: a workflow that only returns, started and awaited like a generation. */
export const readyUpdate = defineUpdate<boolean>('ready');
