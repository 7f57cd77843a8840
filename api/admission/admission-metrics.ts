import { MODALITY_WRITE_SCOPE } from '../../domain/access';
import { findModel } from '../../domain/catalog';
import { MODALITIES, type Modality } from '../../domain/modalities';
import { metrics } from '../../observability/metrics';
import type { Admission } from '../../workflows/definitions';
import type { RouteName, RouteSpec } from '../route-table';

// Admission verdicts on creation requests (`generation_service_admissions_total`), each counted once,
// where it is decided: the wallet's and the budget's by the answer of the workflow's `admit` update
// (or the row it wrote), a paused organization and a plan's limits by the answer that refused them.
// A retry answered from an earlier attempt (Idempotency-Key) decides nothing and counts nothing.

export type AdmissionKind = 'generation' | 'comparison';
type Outcome = 'admitted' | 'insufficient_credits' | 'budget_exceeded' | 'organization_paused' | 'plan_upgrade_required';

function count(kind: AdmissionKind, modality: Modality | 'unknown', outcome: Outcome): void {
  metrics.admissions.inc({ kind, modality, outcome });
}

/** The job was admitted: the reservation's statement wrote its row. */
export function countAdmitted(kind: AdmissionKind, modality: Modality): void {
  count(kind, modality, 'admitted');
}

/** The workflow's answer; a worker that never admitted it in time (a 503) is no verdict. */
export function countAdmissionAnswer(kind: AdmissionKind, modality: Modality, admission: Admission): void {
  if (admission.admitted) count(kind, modality, 'admitted');
  else if (admission.code !== 'admission_timeout') count(kind, modality, admission.code);
}

const REFUSALS_BY_ANSWER = new Set<string>(['organization_paused', 'plan_upgrade_required']);
const MODALITY_OF_SCOPE = new Map<string, Modality>(MODALITIES.map((m) => [MODALITY_WRITE_SCOPE[m], m]));

/**
 * A creation request refused before admission (a paused organization, a plan's limit), counted from
 * its answer: these refusals are thrown by the guards and checks in front of admission.
 */
export function countRefusedAdmission(route: { name: RouteName; spec: RouteSpec }, errorCode: string, body: unknown): void {
  const access = route.spec.access;
  if (access.kind !== 'api_key' || !access.creditConsuming || !REFUSALS_BY_ANSWER.has(errorCode)) return;
  const kind: AdmissionKind = route.name === 'createComparison' ? 'comparison' : 'generation';
  const modality = access.scope === 'any_modality_write' ? comparisonModality(body) : MODALITY_OF_SCOPE.get(typeof access.scope === 'string' ? access.scope : '');
  count(kind, modality ?? 'unknown', errorCode as Outcome);
}

/** A comparison's modality, from its first model (a paused organization is refused before the body is read). */
function comparisonModality(body: unknown): Modality | undefined {
  const models = typeof body === 'object' && body !== null ? (body as { models?: unknown }).models : undefined;
  const first = Array.isArray(models) ? models[0] : undefined;
  return typeof first === 'string' ? findModel(first)?.modality : undefined;
}
