import type Koa from 'koa';
import { describeTextFault, findTextFaults, textFaultOf, type TextInputFault } from '../../domain/text-input';
import type { AppState } from '../context';
import { ApiError } from '../errors';

/** A RegExp route's captures are named by their index (`0`); to the caller they are the path. */
const nameOfPathParam = (name: string) => (/^\d+$/.test(name) ? 'path' : name);

function refuse(faults: TextInputFault[]): never {
  const [first] = faults;
  throw new ApiError('validation_failed', first!.message, { param: first!.param, details: faults });
}

/**
 * Decisions §5, "Text inputs": no string Postgres cannot store (a U+0000, a lone UTF-16 surrogate;
 * domain/text-input.ts) gets past the edge, so no handler, repository or workflow ever meets one.
 * Checked once per request, after its caller is known and its body is parsed and before its
 * Idempotency-Key is claimed (a refused request is not remembered, decisions §9):
 * - a path parameter: 404 resource_not_found, as any id that names nothing (none can hold one);
 * - a query parameter (a list's `starting_after` cursor included) or any string of the JSON body,
 *   keys and values at any depth: 400 validation_failed naming the field as ajv's errors do
 *   (`messages.0.content`), every fault listed in `details`.
 * Header values need no check: Node's HTTP parser already refuses a control character in one.
 */
export function textInputs(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    for (const [name, value] of Object.entries((ctx as { params?: Record<string, unknown> }).params ?? {})) {
      const fault = typeof value === 'string' ? textFaultOf(value) : null;
      if (fault) {
        const param = nameOfPathParam(name);
        throw new ApiError('resource_not_found', `No such resource: the ${param} in the URL ${describeTextFault(fault)}, so it names nothing.`, { param });
      }
    }
    const inQuery = findTextFaults(ctx.query, 'query');
    if (inQuery.length) refuse(inQuery);
    const inBody = findTextFaults(ctx.state.body, 'body');
    if (inBody.length) refuse(inBody);
    return next();
  };
}
