import { MODALITY_MODE, type Modality } from './modalities';

// How long each part of a generation may take. They arrive in the workflow input (workflows read
// no configuration), and the workflow's execution timeout is derived from them, so the workflow
// always ends itself, settling its money, before Temporal would close it from outside.

export interface GenerationTimeouts {
  /** Longest a single provider attempt may take (sync modalities: the whole job). */
  providerStartToCloseMs: number;
  /** Async modalities: longest the provider may take, from submission to a finished job. */
  asyncJobTimeoutMs: number;
  /** Async modalities: a polling worker that stays silent this long is presumed dead. */
  heartbeatTimeoutMs: number;
}

export const DEFAULT_GENERATION_TIMEOUTS: GenerationTimeouts = {
  providerStartToCloseMs: 10 * 60 * 1000,
  asyncJobTimeoutMs: 60 * 60 * 1000,
  heartbeatTimeoutMs: 30 * 1000,
};

/** Settlement retries back off to 10 s for up to 60 attempts: about 10 minutes, with room to spare. */
export const SETTLEMENT_ALLOWANCE_MS = 15 * 60 * 1000;
/** A workflow whose admission never arrives waits this long when it has no deadline of its own. */
export const DEFAULT_ADMISSION_WAIT_MS = 60 * 1000;

/**
 * The provider phase's budget, retries included. Past it the workflow cancels the provider call,
 * asks the provider to stop its job, and refunds (`error_code: provider_timeout`).
 */
export function providerBudgetMs(modality: Modality, timeouts: GenerationTimeouts): number {
  return MODALITY_MODE[modality] === 'sync' ? timeouts.providerStartToCloseMs : timeouts.asyncJobTimeoutMs;
}

/**
 * The workflow's execution timeout: admission, the provider budget and settlement. It is a
 * backstop: a workflow closed by it cannot settle, and the reconciler refunds what it held.
 */
export function generationExecutionTimeoutMs(modality: Modality, timeouts: GenerationTimeouts, admissionWaitMs: number): number {
  return admissionWaitMs + providerBudgetMs(modality, timeouts) + 2 * SETTLEMENT_ALLOWANCE_MS;
}

/**
 * A comparison's execution timeout: its admission, then its children side by side (each within its
 * own timeout, with no admission wait of its own), then settling what no child settled and the verdict.
 */
export function comparisonExecutionTimeoutMs(modality: Modality, timeouts: GenerationTimeouts, admissionWaitMs: number): number {
  return admissionWaitMs + generationExecutionTimeoutMs(modality, timeouts, 0) + 2 * SETTLEMENT_ALLOWANCE_MS;
}
