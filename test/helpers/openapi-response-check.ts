import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type Koa from 'koa';
import { buildOpenApiDocument } from '../../api/openapi/build-document';

// Every response the test stack's APIs give is checked against the OpenAPI document (issue 36): its
// status must be one the operation documents, its content type one that status documents, its body
// valid against that content's schema, and its required headers present. A mismatch is recorded
// here and fails the test that was running (the root hook in test/helpers/global-fixture.ts), so the
// whole suite proves the document true of the code, not only the fuzzer.

interface Response {
  headers?: Record<string, { required?: boolean; $ref?: string }>;
  content?: Record<string, { schema: object }>;
}
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Static segments first: `/v1/webhooks/{id}/deliveries` never matches as a `{id}` of a shorter path. */
  specificity: number;
  responses: Record<string, Response>;
}

const COMPONENTS_ID = 'https://openapi.local/components';

interface Checker {
  operations: Operation[];
  validators: Map<object, ValidateFunction>;
  ajv: Ajv2020;
}

let checker: Checker | undefined;

function load(): Checker {
  if (checker) return checker;
  // The document's `#/components/schemas/X` refs point into a schema of their own here.
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument()).replaceAll('"#/components/schemas/', `"${COMPONENTS_ID}#/$defs/`)) as {
    paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
    components: { schemas: Record<string, object>; responses: Record<string, Response>; headers: Record<string, { required?: boolean }> };
  };
  const deref = <T>(node: T | { $ref: string }, kind: 'responses' | 'headers'): T => {
    const ref = (node as { $ref?: string }).$ref;
    return ref ? (document.components[kind][ref.slice(`#/components/${kind}/`.length)] as T) : (node as T);
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: document.components.schemas });
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const specificity = template.split('/').filter((segment) => segment && !segment.startsWith('{')).length;
    for (const [method, operation] of Object.entries(methods)) {
      const responses = Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => {
          const resolved = deref(response, 'responses');
          const headers = Object.fromEntries(Object.entries(resolved.headers ?? {}).map(([name, h]) => [name, deref(h, 'headers')]));
          return [status, { ...resolved, headers }];
        }),
      );
      operations.push({ method: method.toUpperCase(), template, pattern, specificity, responses });
    }
  }
  operations.sort((a, b) => b.specificity - a.specificity);
  checker = { operations, validators: new Map(), ajv };
  return checker;
}

export interface ResponseViolation {
  request: string;
  problem: string;
}

const violations: ResponseViolation[] = [];

/** The violations recorded since the last call, and forgets them. */
export function takeResponseViolations(): ResponseViolation[] {
  return violations.splice(0, violations.length);
}

/** What is wrong with one response, or undefined; a path no operation documents is not checked. */
export function responseProblem(method: string, path: string, status: number, contentType: string, headers: Record<string, unknown>, body: unknown): string | undefined {
  const { operations, validators, ajv } = load();
  const operation = operations.find((o) => o.method === method && o.pattern.test(path));
  if (!operation) return undefined;
  const documented = operation.responses[String(status)];
  if (!documented)
    return `status ${status} is not documented for ${method} ${operation.template} (documented: ${Object.keys(operation.responses).join(', ')}); body: ${JSON.stringify(body)?.slice(0, 400)}`;
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    if (header.required && headers[name.toLowerCase()] === undefined) return `status ${status} lacks its required ${name} header`;
  }
  const content = documented.content ?? {};
  if (Object.keys(content).length === 0) {
    return body === undefined || body === null || body === '' ? undefined : `status ${status} is documented without a body, but one was sent`;
  }
  const media = content[contentType];
  if (!media) return `content type '${contentType}' is not documented for status ${status} (documented: ${Object.keys(content).join(', ')})`;
  let validate = validators.get(media.schema);
  if (!validate) {
    validate = ajv.compile(media.schema);
    validators.set(media.schema, validate);
  }
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  return `status ${status} body does not match its schema: ${errors.join('; ')}; body: ${JSON.stringify(body)?.slice(0, 600)}`;
}

/** Koa middleware, outermost, so it sees the final status, headers and body the error handler left. */
export function openApiResponseCheck(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return;
    try {
      const raw: unknown = ctx.body;
      const type = ctx.response.type;
      const readable =
        raw === undefined ||
        raw === null ||
        typeof raw === 'string' ||
        (typeof raw === 'object' && !Buffer.isBuffer(raw) && typeof (raw as { pipe?: unknown }).pipe !== 'function');
      if (!readable) return;
      const body = typeof raw === 'string' && type === 'application/json' ? (JSON.parse(raw) as unknown) : raw;
      const problem = responseProblem(ctx.method, ctx.path, ctx.status, type, ctx.response.headers as Record<string, unknown>, body);
      if (problem) violations.push({ request: `${ctx.method} ${ctx.path}`, problem });
    } catch (err) {
      violations.push({ request: `${ctx.method} ${ctx.path}`, problem: `the response could not be checked: ${String(err)}` });
    }
  };
}
