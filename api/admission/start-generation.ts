import type { IncomingHttpHeaders } from 'node:http';
import { WithStartWorkflowOperation, type WorkflowClient } from '@temporalio/client';
import { budgetPeriodOf } from '../../domain/budget-period';
import { budgetExceeded } from './budget-exceeded';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { GenerationRow, OutputRow } from '../../db/repos/generations';
import { modelMode } from '../../domain/catalog';
import type { ResponseMode } from '../../domain/modalities';
import { generationCacheKey } from '../../domain/generation-cache';
import { isTerminal } from '../../domain/generation-status';
import { generationExecutionTimeoutMs } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import type { generationWorkflow } from '../../workflows/generation';
import { reservationOf } from './reservation';
import { refuseOverCeiling } from './max-credits';
import { admitUpdate, type Admission, type GenerationInput } from '../../workflows/definitions';
import type { ApiDeps, AppContext } from '../context';
import { presentGeneration } from '../presenters/generation';
import { setGatewayOverhead } from '../gateway-overhead';
import type { IdempotencyState } from '../idempotency-state';
import { serveFromCache } from './serve-from-cache';
import type { GenerationRequest } from './generation-request';
import { ANSWER_WITH_ADMISSION_FIRST_LOOK_MS, awaitAdmission, noWorker } from './await-admission';
import { ApiError } from '../errors';
import { outputsExpiryOf } from '../middleware/output-retention';
import { generationSearchAttributes } from '../../domain/search-attributes';
import { generationMemo, generationSummary } from '../../domain/workflow-memo';
import { countAdmissionAnswer, countAdmitted } from './admission-metrics';
import { deadlineFromHeader } from './cancel-after';
import { startEagerly, type GenerationStartOptions, type StartedAdmission } from './eager-generation-start';

/**
 * Starts a generation workflow with Update-with-Start: the `admit` update reserves credits inside
 * the workflow, so the caller learns synchronously whether the wallet covered it, and a
 * reservation can never exist without the workflow that will charge or refund it.
 *
 * Temporal delivers the update's answer when the workflow task completes, which for a short sync
 * job is when the job is done. A sync request therefore races the answer against its deadline:
 * the generation row is written in the reservation's own transaction, so a row that exists when
 * the deadline passes means "admitted, still running" and the answer is 202. A rejection ends the
 * workflow at once, so a 402 never waits.
 *
 * With the API's own worker (API_EMBEDDED_WORKER), a sync job starts eagerly instead
 * (eager-generation-start.ts): the workflow reserves as it starts and its result is the answer;
 * the row, the window, the claims and the 202 work as above.
 */
export async function startGeneration(
  deps: ApiDeps,
  principal: KeyPrincipal,
  request: GenerationRequest,
  idempotency: IdempotencyState | undefined,
  /** The route the request came in on, for the workflow's memo. */
  endpoint: string,
  /** The request's headers: `Cancel-After` sets the job's deadline (api/admission/cancel-after.ts). */
  headers: IncomingHttpHeaders,
  /** When its outputs expire (api/middleware/output-retention.ts); null: never. */
  outputsExpireAt: Date | null,
  /** The body's `max_credits`: a reservation over it is refused before anything is reserved. */
  maxCredits?: number,
): Promise<{ httpStatus: 200 | 202; generation: GenerationRow; outputs: OutputRow[] }> {
  const deadlineAt = deadlineFromHeader(headers, request.model.modality, deps.generationTimeouts, Date.now());
  const generationId = idempotency?.resourceId ?? newId('gen');
  if (idempotency?.takenOver) {
    // A retry of a request that broke midway: if its job was admitted, answer with it.
    const existing = await deps.repos.generations.findWithOutputs(generationId);
    if (existing) return respondWith(existing, modelMode(request.model), true);
  }
  const { credits: estimatedCredits, routes, pricing, simulated } = reservationOf(deps, principal, request);
  refuseOverCeiling(maxCredits, estimatedCredits);
  // Before the job exists, so its outputs never exist without their expiry (a retry keeps the first).
  await deps.repos.outputExpiries.record([generationId], outputsExpireAt);
  const cacheKey = generationCacheKey({
    model: request.model.slug,
    prompt: request.prompt,
    params: request.params,
    simulated,
  });
  if (cacheKey) {
    const cached = await serveFromCache(deps, principal, request, generationId, cacheKey);
    if (cached) return { httpStatus: modelMode(request.model) === 'sync' ? 200 : 202, ...cached };
  }
  const budgetPeriod = budgetPeriodOf(deps.clock());
  const input: GenerationInput = {
    generationId,
    organizationId: principal.organizationId,
    apiKeyId: principal.apiKeyId,
    environment: principal.environment,
    modality: request.model.modality,
    model: request.model.slug,
    prompt: request.prompt,
    params: request.params,
    estimatedCredits,
    timeouts: deps.generationTimeouts,
    plan: principal.plan,
    pricing,
    admitBy: Date.now() + deps.admissionTimeoutMs,
    budgetPeriod,
    ...(request.inputs && { inputs: request.inputs }),
    ...(cacheKey && { cacheKey }),
    routes,
    ...(deadlineAt !== undefined && { deadlineAt }),
  };
  const syncWindowMs = modelMode(request.model) === 'sync' ? deps.syncTimeoutMs : 0;
  const options: GenerationStartOptions = {
    workflowId: generationId,
    // A backstop past every deadline the workflow keeps itself (domain/generation-timeouts.ts).
    workflowExecutionTimeout: generationExecutionTimeoutMs(input.modality, input.timeouts, deps.admissionTimeoutMs),
    // A taken-over retry attaches to the job its first attempt started, if that is still running;
    // a closed one without a generation row was refused admission and may run again.
    workflowIdConflictPolicy: idempotency?.takenOver ? 'USE_EXISTING' : 'FAIL',
    // What an operator finds and reads it by in the Temporal UI (docs/operations.md).
    typedSearchAttributes: generationSearchAttributes(input),
    memo: generationMemo({ ...input, endpoint }),
    staticSummary: generationSummary(input),
  };
  const claim = {
    claimId: generationId,
    organizationId: principal.organizationId,
    apiKeyId: principal.apiKeyId,
    budgetPeriod,
    neededCredits: estimatedCredits,
    admitBy: input.admitBy!,
    findAdmitted: () => deps.repos.generations.findWithOutputs(generationId),
  };
  const admission = deps.syncStarts && syncWindowMs > 0 ? startEagerly(deps, deps.syncStarts, input, options, claim) : startWithAdmitUpdate(deps, input, options);
  admission.answer.catch(() => undefined);
  const deadline = Date.now() + syncWindowMs;
  const waited = await awaitAdmission(deps, {
    ...claim,
    answer: admission.answer,
    syncWindowMs,
    // An async job's answer comes with the workflow task that reserves; a sync job's, when it is done.
    ...(modelMode(request.model) === 'async' && { firstLookAfterMs: ANSWER_WITH_ADMISSION_FIRST_LOOK_MS }),
    stopWaiting: admission.stopWaiting,
  });
  if (waited.kind === 'row') {
    countAdmitted('generation', request.model.modality);
    return respondWith(waited.found, modelMode(request.model), syncWindowMs > 0);
  }
  countAdmissionAnswer('generation', request.model.modality, waited.admission);
  assertAdmitted(waited.admission, estimatedCredits, deps.admissionTimeoutMs);

  let found = await deps.repos.generations.findWithOutputs(generationId);
  const remainingMs = deadline - Date.now();
  if (found && !isTerminal(found.generation.status) && remainingMs > 0) {
    const handle = await admission.workflowHandle();
    await waitAtMost(deps, handle.client, remainingMs, () => handle.result());
    found = await deps.repos.generations.findWithOutputs(generationId);
  }
  if (!found) throw new Error(`admitted generation ${generationId} has no row`);
  return respondWith(found, modelMode(request.model), syncWindowMs > 0);
}

/** Today's path (and an async job's): Update-with-Start on the main queue, the `admit` update answering. */
function startWithAdmitUpdate(deps: ApiDeps, input: GenerationInput, options: GenerationStartOptions): StartedAdmission {
  const start = new WithStartWorkflowOperation<typeof generationWorkflow>('generationWorkflow', { ...options, taskQueue: deps.taskQueue, args: [input] });
  const abort = new AbortController();
  const answer = deps.temporal.withAbortSignal(abort.signal, () => deps.temporal.workflow.executeUpdateWithStart(admitUpdate, { startWorkflowOperation: start }));
  return { answer, workflowHandle: () => start.workflowHandle(), stopWaiting: () => abort.abort() };
}

/**
 * A sync endpoint answers 200 with a finished generation, else 202; an async endpoint always answers
 * 202 (spec §1), even when its job has already finished (a fast job, a retry of a finished request),
 * as its cache hits do. A generation the request did not wait for is described as it was accepted,
 * `queued` (decisions §5), even if a worker has already picked it up.
 */
function respondWith(found: { generation: GenerationRow; outputs: OutputRow[] }, mode: ResponseMode, waited: boolean) {
  const finished = isTerminal(found.generation.status);
  const generation = finished || waited ? found.generation : { ...found.generation, status: 'queued' as const, started_at: null };
  return { httpStatus: finished && mode === 'sync' ? (200 as const) : (202 as const), generation, outputs: found.outputs };
}

function assertAdmitted(admission: Admission, estimatedCredits: number, admissionTimeoutMs: number): void {
  if (admission.admitted) return;
  if (admission.code === 'admission_timeout') throw noWorker(admissionTimeoutMs);
  if (admission.code === 'budget_exceeded') throw budgetExceeded(admission, estimatedCredits);
  throw new ApiError(
    'insufficient_credits',
    `Insufficient credits: this request needs ${estimatedCredits} credits and ${admission.availableCredits} are available. Top up the wallet or lower the request's cost.`,
  );
}

/** Waits for the workflow at most `ms`, then stops polling it (on the client it was started on: the API's own worker's, or the API's). */
async function waitAtMost(deps: ApiDeps, client: WorkflowClient, ms: number, result: () => Promise<unknown>): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    await client.withAbortSignal(abort.signal, result);
  } catch (err) {
    // Timed out, or the workflow ended in cancel: either way the row says where it stands.
    if (!abort.signal.aborted) deps.logger.debug('sync wait ended early', { error: String(err) });
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the generation and answers with it: 200 when finished within the sync window, else 202. */
export async function respondWithGeneration(ctx: AppContext, deps: ApiDeps, principal: KeyPrincipal, request: GenerationRequest, maxCredits: number | undefined): Promise<void> {
  const { httpStatus, generation, outputs } = await startGeneration(deps, principal, request, ctx.state.idempotency, ctx.path, ctx.headers, outputsExpiryOf(ctx), maxCredits);
  ctx.status = httpStatus;
  if (httpStatus === 200) setGatewayOverhead(ctx, generation);
  ctx.body = await presentGeneration(generation, outputs, deps.storage);
}
