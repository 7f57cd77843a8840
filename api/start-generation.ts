import { WithStartWorkflowOperation } from '@temporalio/client';
import type { KeyPrincipal } from '../db/repos/api-keys';
import type { GenerationRow } from '../db/repos/generations';
import type { ModelEntry } from '../domain/catalog';
import { modelMode } from '../domain/catalog';
import { isTerminal } from '../domain/generation-status';
import { newId } from '../lib/ids';
import type { generationWorkflow } from '../workflows/generation';
import { admitUpdate, type GenerationInput } from '../workflows/definitions';
import type { ApiDeps } from './context';
import { ApiError } from './errors';

export interface GenerationRequest {
  model: ModelEntry;
  prompt: string;
  params: Record<string, unknown>;
  estimatedCredits: number;
}

/**
 * Starts a generation workflow with Update-with-Start: the `admit` update reserves credits inside
 * the workflow, so the caller learns synchronously whether the wallet covered it, and a
 * reservation can never exist without the workflow that will charge or refund it.
 * Sync modalities then wait up to `syncTimeoutMs` for the result.
 */
export async function startGeneration(
  deps: ApiDeps,
  principal: KeyPrincipal,
  request: GenerationRequest,
): Promise<{ httpStatus: 200 | 202; generation: GenerationRow }> {
  const generationId = newId('gen');
  const estimatedCredits = principal.environment === 'test' ? 0 : request.estimatedCredits;
  const input: GenerationInput = {
    generationId,
    organizationId: principal.organizationId,
    apiKeyId: principal.apiKeyId,
    environment: principal.environment,
    plan: principal.plan,
    modality: request.model.modality,
    model: request.model.slug,
    prompt: request.prompt,
    params: request.params,
    estimatedCredits,
    timeouts: deps.generationTimeouts,
  };
  const start = new WithStartWorkflowOperation<typeof generationWorkflow>('generationWorkflow', {
    workflowId: generationId,
    taskQueue: deps.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'FAIL',
  });
  const admission = await deps.temporal.workflow.executeUpdateWithStart(admitUpdate, { startWorkflowOperation: start });
  if (!admission.admitted) {
    throw new ApiError(
      'insufficient_credits',
      `Insufficient credits: this request needs ${estimatedCredits} credits and ${admission.availableCredits} are available. Top up the wallet or lower the request's cost.`,
    );
  }

  if (modelMode(request.model) === 'sync') {
    const handle = await start.workflowHandle();
    await waitForResult(deps, () => handle.result());
  }
  const generation = await deps.repos.generations.findById(generationId);
  if (!generation) throw new Error(`admitted generation ${generationId} has no row`);
  return { httpStatus: isTerminal(generation.status) ? 200 : 202, generation };
}

/** Waits for the workflow at most `syncTimeoutMs`, then stops polling it. */
async function waitForResult(deps: ApiDeps, result: () => Promise<unknown>): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), deps.syncTimeoutMs);
  try {
    await deps.temporal.withAbortSignal(abort.signal, result);
  } catch (err) {
    // Timed out, or the workflow ended in cancel: either way the row says where it stands.
    if (!abort.signal.aborted) deps.logger.debug('sync wait ended early', { error: String(err) });
  } finally {
    clearTimeout(timer);
  }
}
