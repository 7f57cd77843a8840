import { ROUTES, type RouteSpec } from '../route-table';
import { errorCodesOf } from './error-codes';
import { type ErrorComponents, errorResponses } from './error-responses';
import type { BodySchema, OperationDoc } from './operation-doc';
import { toOpenApiSchema } from './schema-dialect';

// One route as an OpenAPI operation: parameters from its path and query schema, its body, every
// success response from its doc, and one error response per status its codes fall in
// (api/openapi/error-responses.ts).

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const bodySchema = (body: BodySchema) => ('component' in body ? { $ref: `#/components/schemas/${body.component}` } : toOpenApiSchema(body.schema));

/** `/v1/generations/:id` → `/v1/generations/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function who(spec: RouteSpec): { security: object[]; extensions: Record<string, unknown>; sentence: string } {
  const access = spec.access;
  switch (access.kind) {
    case 'api_key': {
      const scope =
        access.scope === null
          ? 'any key'
          : access.scope === 'any_modality_write'
            ? 'a key with the write scope of the models’ modality'
            : typeof access.scope === 'string'
              ? `a key with the \`${access.scope}\` scope`
              : `a key with one of the scopes ${access.scope.map((s) => `\`${s}\``).join(', ')}`;
      return {
        security: [{ ApiKey: [] }],
        extensions: { 'x-required-scope': access.scope, 'x-minimum-role': access.minRole, 'x-credit-consuming': access.creditConsuming },
        sentence: `Needs ${scope} and the ${access.minRole} role or higher.${access.creditConsuming ? ' Spends credits.' : ''}`,
      };
    }
    case 'admin':
      return { security: [{ AdminToken: [] }], extensions: {}, sentence: 'Operator API: needs the admin token.' };
    default:
      return { security: [], extensions: {}, sentence: 'No authentication.' };
  }
}

function parameters(spec: RouteSpec, doc: OperationDoc): object[] {
  const path = typeof spec.path === 'string' ? spec.path : '';
  const fromPath = [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: toOpenApiSchema(doc.pathParams?.[name!] ?? { type: 'string', minLength: 1, maxLength: 100 }),
  }));
  const query = doc.query as { properties?: Record<string, object>; required?: string[] } | undefined;
  const fromQuery = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema: toOpenApiSchema(schema),
  }));
  const idempotency = spec.idempotency ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [];
  // Every request that creates a generation or a comparison takes a deadline (issue 42), and a quote
  // checks one as that request would.
  const createsJob = spec.idempotency?.resourcePrefix === 'gen' || spec.idempotency?.resourcePrefix === 'cmp' || spec.path === ROUTES.createQuote.path;
  const deadline = createsJob ? [{ $ref: '#/components/parameters/CancelAfter' }] : [];
  return [...fromPath, ...fromQuery, ...idempotency, ...deadline];
}

function successResponses(spec: RouteSpec, doc: OperationDoc): Record<string, object> {
  const headers = {
    'X-Request-Id': header('RequestId'),
    ...(spec.access.kind === 'api_key' && {
      'RateLimit-Limit': header('RateLimitLimit'),
      'RateLimit-Remaining': header('RateLimitRemaining'),
      'RateLimit-Reset': header('RateLimitReset'),
    }),
    ...(spec.idempotency && { 'Idempotent-Replayed': header('IdempotentReplayed') }),
  };
  const out: Record<string, object> = {};
  for (const [status, response] of Object.entries(doc.responses)) {
    const content = {
      ...(response.body && { 'application/json': { schema: bodySchema(response.body) } }),
      ...Object.fromEntries(Object.entries(response.alternatives ?? {}).map(([type, schema]) => [type, { schema: toOpenApiSchema(schema) }])),
    };
    out[status] = {
      description: response.description,
      headers: {
        ...headers,
        ...(status === '503' && { 'Retry-After': header('RetryAfterAlways') }),
        // A credit-consuming route's 200 is a sync job's answer (api/gateway-overhead.ts).
        ...(status === '200' && spec.access.kind === 'api_key' && spec.access.creditConsuming && { 'X-Gateway-Overhead-Ms': header('GatewayOverheadMs') }),
      },
      ...(Object.keys(content).length > 0 && { content }),
      ...(doc.links?.[Number(status)] && { links: doc.links[Number(status)] }),
    };
  }
  return out;
}

/** The operation; its error responses and their bodies are written into `errors` (components) and referenced. */
export function operationObject(name: string, spec: RouteSpec, doc: OperationDoc, errors: ErrorComponents): object {
  const { security, extensions, sentence } = who(spec);
  const successes = successResponses(spec, doc);
  return {
    operationId: name,
    tags: [doc.tag],
    summary: doc.summary,
    description: [doc.description, sentence].filter(Boolean).join('\n\n'),
    security,
    ...extensions,
    parameters: parameters(spec, doc),
    ...(doc.body && {
      requestBody: { required: doc.bodyRequired ?? false, content: { 'application/json': { schema: toOpenApiSchema(doc.body) } } },
    }),
    responses: { ...successes, ...errorResponses([...errorCodesOf(spec, doc), ...(doc.openAiErrors ?? [])], new Set(Object.keys(successes)), errors, spec.errorShape) },
  };
}
