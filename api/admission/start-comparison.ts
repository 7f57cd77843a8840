import type { IncomingHttpHeaders } from 'node:http';
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { KeyPrincipal } from '../../db/repos/api-keys';
import type { ComparisonChild, ComparisonRow } from '../../db/repos/comparisons';
import type { Modality } from '../../domain/modalities';
import { comparisonExecutionTimeoutMs } from '../../domain/generation-timeouts';
import { newId } from '../../lib/ids';
import type { comparisonWorkflow } from '../../workflows/comparison';
import { budgetPeriodOf } from '../../domain/budget-period';
import { budgetExceeded } from './budget-exceeded';
import { reservationOf } from './reservation';
import { refuseOverCeiling } from './max-credits';
import { admitUpdate, type Admission, type ComparisonInput, type GenerationInput } from '../../workflows/definitions';
import { ANSWER_WITH_ADMISSION_FIRST_LOOK_MS, awaitAdmission, noWorker } from './await-admission';
import type { ApiDeps } from '../context';
import { ApiError } from '../errors';
import { countAdmissionAnswer, countAdmitted } from './admission-metrics';
import { deadlineFromHeader } from './cancel-after';
import type { IdempotencyState } from '../idempotency-state';
import type { GenerationRequest } from './generation-request';
import { comparisonSearchAttributes } from '../../domain/search-attributes';
import { comparisonMemo, comparisonSummary } from '../../domain/workflow-memo';

type Found = { comparison: ComparisonRow; children: ComparisonChild[] };

/**
 * Starts a comparison's workflow with Update-with-Start, as startGeneration does for a generation:
 * the `admit` update records the comparison and its children and reserves the sum of their
 * estimates in one statement, so the caller learns at once whether the wallet covered all of them
 * (402, with nothing reserved, if not). Comparisons are async: the answer is the comparison as
 * accepted, once admitted.
 */
export async function startComparison(
  deps: ApiDeps,
  principal: KeyPrincipal,
  request: { modality: Modality; prompt: string; paramsShared: Record<string, unknown>; children: GenerationRequest[]; maxCredits?: number | undefined },
  idempotency: IdempotencyState | undefined,
  /** The route the request came in on, for the workflow's memo. */
  endpoint: string,
  /** The request's headers: `Cancel-After` sets every child's deadline (api/admission/cancel-after.ts). */
  headers: IncomingHttpHeaders,
  /** When its children's outputs expire (api/middleware/output-retention.ts); null: never. */
  outputsExpireAt: Date | null,
): Promise<Found> {
  const deadlineAt = deadlineFromHeader(headers, request.modality, deps.generationTimeouts, Date.now());
  const comparisonId = idempotency?.resourceId ?? newId('cmp');
  const owner = { organizationId: principal.organizationId, environment: principal.environment };
  if (idempotency?.takenOver) {
    // A retry of a request that broke midway: if its comparison was admitted, answer with it.
    const existing = await deps.repos.comparisons.findWithChildren(comparisonId, owner);
    if (existing) return existing;
  }
  const reservations = request.children.map((child) => reservationOf(deps, principal, child));
  refuseOverCeiling(
    request.maxCredits,
    reservations.reduce((sum, r) => sum + r.credits, 0),
    request.children.map((child, i) => ({ model: child.model.slug, credits: reservations[i]!.credits })),
  );
  const children: GenerationInput[] = request.children.map((child, i) => {
    const { credits, routes } = reservations[i]!;
    return {
      generationId: newId('gen'),
      organizationId: principal.organizationId,
      apiKeyId: principal.apiKeyId,
      environment: principal.environment,
      modality: request.modality,
      model: child.model.slug,
      prompt: child.prompt,
      params: child.params,
      estimatedCredits: credits,
      timeouts: deps.generationTimeouts,
      plan: principal.plan,
      pricing: reservations[i]!.pricing,
      comparisonId,
      ...(child.inputs && { inputs: child.inputs }),
      routes,
      ...(deadlineAt !== undefined && { deadlineAt }),
    };
  });
  // Before the children exist, so their outputs never exist without their expiry.
  await deps.repos.outputExpiries.record(
    children.map((c) => c.generationId),
    outputsExpireAt,
  );
  const budgetPeriod = budgetPeriodOf(deps.clock());
  const input: ComparisonInput = {
    comparisonId,
    organizationId: principal.organizationId,
    apiKeyId: principal.apiKeyId,
    environment: principal.environment,
    modality: request.modality,
    prompt: request.prompt,
    paramsShared: request.paramsShared,
    children,
    admitBy: Date.now() + deps.admissionTimeoutMs,
    budgetPeriod,
    ...(deadlineAt !== undefined && { deadlineAt }),
  };
  const start = new WithStartWorkflowOperation<typeof comparisonWorkflow>('comparisonWorkflow', {
    workflowId: comparisonId,
    taskQueue: deps.taskQueue,
    args: [input],
    workflowExecutionTimeout: comparisonExecutionTimeoutMs(request.modality, deps.generationTimeouts, deps.admissionTimeoutMs),
    workflowIdConflictPolicy: idempotency?.takenOver ? 'USE_EXISTING' : 'FAIL',
    // What an operator finds and reads it by in the Temporal UI (docs/operations.md).
    typedSearchAttributes: comparisonSearchAttributes(input),
    memo: comparisonMemo({ ...input, models: children.map((c) => c.model), endpoint }),
    staticSummary: comparisonSummary({ ...input, models: children.map((c) => c.model) }),
  });
  const abortAdmission = new AbortController();
  const answer = deps.temporal.withAbortSignal(abortAdmission.signal, () => deps.temporal.workflow.executeUpdateWithStart(admitUpdate, { startWorkflowOperation: start }));
  answer.catch(() => undefined);
  const findAdmitted = () => deps.repos.comparisons.findWithChildren(comparisonId, owner);
  const waited = await awaitAdmission(deps, {
    claimId: comparisonId,
    organizationId: principal.organizationId,
    apiKeyId: principal.apiKeyId,
    budgetPeriod,
    neededCredits: children.reduce((sum, c) => sum + c.estimatedCredits, 0),
    admitBy: input.admitBy!,
    answer,
    syncWindowMs: 0,
    // The comparison's answer comes with the workflow task that reserves its children.
    firstLookAfterMs: ANSWER_WITH_ADMISSION_FIRST_LOOK_MS,
    stopWaiting: () => abortAdmission.abort(),
    findAdmitted,
  });
  if (waited.kind === 'row') {
    countAdmitted('comparison', request.modality);
    return waited.found;
  }
  countAdmissionAnswer('comparison', request.modality, waited.admission);
  assertAdmitted(waited.admission, children, deps.admissionTimeoutMs);
  const found = await findAdmitted();
  if (!found) throw new Error(`admitted comparison ${comparisonId} has no row`);
  return found;
}

function assertAdmitted(admission: Admission, children: GenerationInput[], admissionTimeoutMs: number): void {
  if (admission.admitted) return;
  if (admission.code === 'admission_timeout') throw noWorker(admissionTimeoutMs);
  const total = children.reduce((sum, c) => sum + c.estimatedCredits, 0);
  if (admission.code === 'budget_exceeded') throw budgetExceeded(admission, total);
  throw new ApiError(
    'insufficient_credits',
    `Insufficient credits: this comparison needs ${total} credits for its ${children.length} models together, and ${admission.availableCredits} are available. Nothing was reserved. Top up the wallet or compare fewer or cheaper models.`,
  );
}
