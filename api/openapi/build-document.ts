import packageJson from '../../package.json';
import { ROUTES, type RouteName } from '../route-table';
import { RESPONSE_SCHEMAS } from '../schemas/responses';
import type { ErrorComponents } from './error-responses';
import { openApiPath, operationObject } from './operation-object';
import { OPERATIONS } from './operations';
import { ERROR_DETAIL_SCHEMA, ERROR_SCHEMA, HEADERS, OPENAI_ERROR_SCHEMA, PARAMETERS, SECURITY_SCHEMES } from './shared-components';
import { webhooksSection } from './webhooks-section';

// The OpenAPI 3.1 document, built from the route table (who may call what), the operations record
// (what each takes and answers) and the schemas the handlers validate with. `GET /openapi.json`
// serves it and `npm run openapi` writes it to openapi.json; a test fails when the two differ.

const TAGS = [
  { name: 'Generations', description: 'Image, video, voice, music, avatar, chat, 3D and upscale jobs: one endpoint per modality, one Generation object for all.' },
  { name: 'Comparisons', description: 'One prompt, several models of one modality, side by side.' },
  { name: 'OpenAI-compatible', description: 'OpenAI’s chat protocol and error shape, for the official OpenAI SDKs: set their base URL to /v1/openai.' },
  { name: 'Models', description: 'The catalog: what each model does and costs.' },
  { name: 'Uploads', description: 'Input files (images, audio) for the jobs that take them.' },
  { name: 'Billing', description: 'The wallet’s balance and what was spent.' },
  { name: 'API keys', description: 'Keys with roles, scopes, budgets and IP allowlists.' },
  { name: 'Users', description: 'The people of the organization and their roles.' },
  { name: 'Provider credentials', description: 'Bring your own provider keys (Enterprise).' },
  { name: 'Webhooks', description: 'Signed event deliveries with durable retries and replay.' },
  { name: 'Events', description: 'The events webhooks deliver, read by polling.' },
  { name: 'Operator', description: 'The operator API (its own token): organizations and credits.' },
  { name: 'Health', description: 'For load balancers and orchestrators.' },
  { name: 'Meta', description: 'This document.' },
];

function buildPaths(errors: ErrorComponents): Record<string, Record<string, object>> {
  const paths: Record<string, Record<string, object>> = {};
  for (const name of Object.keys(ROUTES) as RouteName[]) {
    const spec = ROUTES[name];
    const doc = OPERATIONS[name];
    if ('undocumented' in doc || typeof spec.path !== 'string') continue;
    const path = openApiPath(spec.path);
    paths[path] = { ...paths[path], [spec.method.toLowerCase()]: operationObject(name, spec, doc, errors) };
  }
  return paths;
}

export function buildOpenApiDocument(): object {
  const errors: ErrorComponents = { responses: new Map(), schemas: new Map() };
  const paths = buildPaths(errors);
  const sorted = (map: Map<string, object>) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Multi-model generation service',
      version: packageJson.version,
      summary: 'One API key, one credit wallet, many models.',
      description: `${packageJson.description} Errors share one shape (\`error.type\`, \`error.code\`, \`error.message\`, \`error.request_id\`); lists are Stripe-style pages.`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // Relative: the server the document was fetched from (`npm start` serves on http://localhost:8080).
    servers: [{ url: '/', description: 'The server this document was fetched from.' }],
    tags: TAGS,
    paths,
    webhooks: webhooksSection(),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      headers: HEADERS,
      parameters: PARAMETERS,
      responses: sorted(errors.responses),
      schemas: { Error: ERROR_SCHEMA, ErrorDetail: ERROR_DETAIL_SCHEMA, OpenAiError: OPENAI_ERROR_SCHEMA, ...RESPONSE_SCHEMAS, ...sorted(errors.schemas) },
    },
  };
}

let built: string | undefined;

/** The document as JSON text, built once per process (it depends only on the code). */
export function openApiDocumentText(): string {
  built ??= `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
  return built;
}
