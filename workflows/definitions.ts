import { defineUpdate } from '@temporalio/workflow';
import type { Environment } from '../domain/generation-status';
import type { Modality } from '../domain/modalities';

// The contract between the API, the workflows and the worker: names, inputs and results.
// Imported by the API and the worker; it holds no logic.

export interface GenerationTimeouts {
  /** Longest a single provider attempt may take. */
  providerStartToCloseMs: number;
}

export const DEFAULT_GENERATION_TIMEOUTS: GenerationTimeouts = {
  providerStartToCloseMs: 10 * 60 * 1000,
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
}

export type Admission =
  | { admitted: true }
  | { admitted: false; code: 'insufficient_credits'; availableCredits: number };

export type GenerationOutcome = 'succeeded' | 'failed' | 'canceled' | 'rejected';

/** Update-with-Start target: reserves credits and answers the caller synchronously. */
export const admitUpdate = defineUpdate<Admission>('admit');

/** The benchmark's floor: a workflow that only returns, started and awaited like a generation. */
export const readyUpdate = defineUpdate<boolean>('ready');
