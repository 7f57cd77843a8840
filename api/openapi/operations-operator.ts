import { parseAdjustCredits, parseCreateOrganization, parseUpdateOrganization } from '../schemas/admin';
import type { OperationDoc, UndocumentedRoute } from './operation-doc';

// The OpenAPI side of the operator API (its own bearer token, decisions §3), the health probe, and
// the routes the document leaves out on purpose.

export const OPERATOR_OPERATIONS = {
  health: {
    tag: 'Health',
    summary: 'Check health',
    description: 'For load balancers: 200 when Postgres and Temporal both answer, else 503 naming the one that did not.',
    responses: {
      200: { description: 'Both dependencies answer.', body: { component: 'Health' } },
      503: { description: 'A dependency does not answer; retry after the Retry-After seconds.', body: { component: 'Health' } },
    },
  },

  openapi: {
    tag: 'Meta',
    summary: 'Get this document',
    description: 'The OpenAPI 3.1 document of the service, generated from its route table and validation schemas.',
    responses: {
      200: {
        description: 'The document.',
        body: {
          schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } } },
        },
      },
    },
  },

  // GET /docs renders the document above for people; it is a page about the API, not part of it.
  docsPage: { undocumented: 'the HTML reference page (Swagger UI over this document)' },
  docsAsset: { undocumented: 'a static file of the HTML reference page (Swagger UI’s script, styles, icons)' },
  dashboardPage: { undocumented: 'the dashboard, a single-page app over this API' },
  dashboardAsset: { undocumented: 'a static file of the dashboard (its script, styles, icons)' },

  adminCreateOrganization: {
    tag: 'Operator',
    summary: 'Create an organization',
    description: 'With its wallet, opening credits, an owner, and one live and one test key (their secrets shown once).',
    body: parseCreateOrganization.schema,
    bodyRequired: true,
    responses: { 201: { description: 'The organization and its first keys.', body: { component: 'CreatedOrganization' } } },
  },
  adminGetOrganization: {
    tag: 'Operator',
    summary: 'Get an organization',
    responses: { 200: { description: 'The organization with its balance.', body: { component: 'Organization' } } },
  },
  adminUpdateOrganization: {
    tag: 'Operator',
    summary: 'Update an organization',
    description: 'Plan, name, Enterprise flag, or pause (a paused organization may read but not spend).',
    body: parseUpdateOrganization.schema,
    responses: { 200: { description: 'The updated organization with its balance.', body: { component: 'Organization' } } },
  },
  adminAdjustCredits: {
    tag: 'Operator',
    summary: 'Grant or deduct credits',
    description: 'One ledger row with its reason; a deduction never takes the wallet below zero.',
    body: parseAdjustCredits.schema,
    bodyRequired: true,
    responses: { 200: { description: 'The adjustment and the balance after it.', body: { component: 'CreditAdjustment' } } },
    errors: ['insufficient_credits'],
  },

  // Not for API users: each is reached only through a URL the service itself signed and handed out.
  file: { undocumented: 'a signed output or upload URL, handed out in Generation.outputs[].url and Upload.file_url' },
  uploadFile: { undocumented: 'the signed PUT target of an upload, handed out in Upload.upload_url' },
  providerCallback: { undocumented: 'a provider’s job-changed hint, at a URL signed for that provider' },
} satisfies Record<string, OperationDoc | UndocumentedRoute>;
