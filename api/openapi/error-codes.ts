import type { ErrorCode } from '../errors';
import type { RouteSpec } from '../route-table';
import type { OperationDoc } from './operation-doc';

// Which error codes a route can answer, from what it is: every code its guards, body parser, text
// check and Idempotency-Key handling can throw (api/define-route.ts builds the same chain), plus the
// codes its own handler throws (OperationDoc.errors). The response checker in the tests fails any
// code a route answers that this does not list, so the list cannot drift from the code.

/** Every route: the JSON body parser and the text check run on all of them, and any route can fail. */
const EVERY_ROUTE: readonly ErrorCode[] = ['validation_failed', 'payload_too_large', 'unsupported_media_type', 'internal_error', 'service_unavailable'];

const API_KEY_ROUTE: readonly ErrorCode[] = ['missing_authorization', 'invalid_authorization', 'invalid_api_key', 'ip_not_allowed', 'insufficient_role', 'rate_limited'];
const ADMIN_ROUTE: readonly ErrorCode[] = ['missing_authorization', 'invalid_authorization', 'invalid_api_key'];
/** A credit-consuming route of a paused organization (decisions §3). */
const CREDIT_CONSUMING_ROUTE: readonly ErrorCode[] = ['organization_paused'];
const IDEMPOTENT_ROUTE: readonly ErrorCode[] = ['idempotency_in_progress', 'idempotency_key_reused'];
/** A path parameter that names nothing (or cannot name anything: the text check answers 404 too). */
const PATH_PARAMETER_ROUTE: readonly ErrorCode[] = ['resource_not_found'];

export function errorCodesOf(spec: RouteSpec, doc: OperationDoc): ErrorCode[] {
  const codes = new Set<ErrorCode>(EVERY_ROUTE);
  const add = (list: readonly ErrorCode[]) => list.forEach((code) => codes.add(code));
  if (spec.access.kind === 'api_key') {
    add(API_KEY_ROUTE);
    if (spec.access.creditConsuming) add(CREDIT_CONSUMING_ROUTE);
  }
  if (spec.access.kind === 'admin') add(ADMIN_ROUTE);
  if (spec.idempotency) add(IDEMPOTENT_ROUTE);
  if (typeof spec.path === 'string' && spec.path.includes('/:')) add(PATH_PARAMETER_ROUTE);
  add(doc.errors ?? []);
  return [...codes];
}
