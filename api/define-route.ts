import type Router from '@koa/router';
import type Koa from 'koa';
import type { ApiDeps, AppState } from './context';
import { adminAuth } from './middleware/admin-auth';
import { authenticate } from './middleware/authenticate';
import { authorize } from './middleware/authorize';
import { idempotency } from './middleware/idempotency';
import { jsonBody } from './middleware/json-body';
import { openAiErrors } from './middleware/openai-errors';
import { outputRetention } from './middleware/output-retention';
import { rateLimit } from './middleware/rate-limit';
import { textInputs } from './middleware/text-inputs';
import type { RouteAccess, RouteSpec } from './route-table';

export type AppRouter = Router<AppState>;
type Handler = Koa.Middleware<AppState>;

function guardsFor(access: RouteAccess, deps: ApiDeps): Handler[] {
  switch (access.kind) {
    case 'api_key':
      return [authenticate(deps), rateLimit(deps), authorize(access)];
    case 'admin':
      return [adminAuth(deps.adminToken)];
    case 'public':
    case 'signed_url':
      // Health is public; a file's signature is checked by its handler.
      return [];
  }
}

/**
 * The only way a handler is registered: with the guards its route-table entry names, then the
 * JSON body parser (not for signed file URLs), so that nothing reads a body before its caller is
 * known, then the one check of every path, query and body string (api/middleware/text-inputs.ts),
 * then Idempotency-Key handling for the routes whose table entry asks for it. A route whose entry
 * says `errorShape: 'openai'` has its failures rendered in OpenAI's shape by a first link.
 */
export function defineRoute(router: AppRouter, deps: ApiDeps, spec: RouteSpec, handler: Handler): void {
  // A signed file URL's body is the file itself (a signed upload: raw bytes of the signed type, up to
  // the signed size), read by its handler; the 1 MiB JSON parser must not touch it.
  const body = spec.access.kind === 'signed_url' ? [] : [jsonBody()];
  const errors = spec.errorShape === 'openai' ? [openAiErrors()] : [];
  const chain = [
    ...errors,
    ...guardsFor(spec.access, deps),
    ...body,
    textInputs(),
    ...(spec.idempotency ? [idempotency(deps, spec, spec.idempotency.resourcePrefix)] : []),
    // Every route that creates generations (or a comparison of them) takes `retention`.
    ...(spec.idempotency?.resourcePrefix === 'gen' || spec.idempotency?.resourcePrefix === 'cmp' ? [outputRetention(deps)] : []),
    handler,
  ];
  switch (spec.method) {
    case 'GET':
      router.get(spec.path, ...chain);
      break;
    case 'POST':
      router.post(spec.path, ...chain);
      break;
    case 'PUT':
      router.put(spec.path, ...chain);
      break;
    case 'PATCH':
      router.patch(spec.path, ...chain);
      break;
    case 'DELETE':
      router.delete(spec.path, ...chain);
      break;
  }
}
