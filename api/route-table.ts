import { EVENTS_FEED_SCOPES, type Role, type Scope } from '../domain/access';
import type { IdPrefix } from '../lib/ids';

// Every route the service answers, with who may call it. Routers register handlers only through
// this table (api/define-route.ts), and a test fails if a registered route is missing from it or
// a listed route is not registered, so no route can skip authorization by accident.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteAccess = { kind: 'public' } | { kind: 'signed_url' } | { kind: 'admin' } | { kind: 'api_key'; scope: RouteScope; minRole: Role; creditConsuming: boolean };

/**
 * The scope a route needs: one scope, any one of a list, none (any key), or `any_modality_write`: the write scope of
 * the modality the request names, which only its handler knows (a comparison); before the body is
 * read, the key must hold at least one modality's write scope.
 */
export type RouteScope = Scope | readonly Scope[] | 'any_modality_write' | null;

export interface RouteSpec {
  method: HttpMethod;
  /** A @koa/router path, or a RegExp for the file server's wildcard. */
  path: string | RegExp;
  access: RouteAccess;
  /**
   * Takes an `Idempotency-Key` (decisions §9). `resourcePrefix` names the id a claim reserves for the
   * resource the request creates, which a retry of a broken attempt reuses; null when it creates none.
   */
  idempotency?: { resourcePrefix: IdPrefix | null };
  /** Failures in OpenAI's error shape and statuses (api/openai/error-shape.ts) instead of decisions §2's. */
  errorShape?: 'openai';
}

const apiKey = (scope: RouteScope, minRole: Role, creditConsuming = false): RouteAccess => ({
  kind: 'api_key',
  scope,
  minRole,
  creditConsuming,
});

const createsGeneration = { resourcePrefix: 'gen' } as const;

export const ROUTES = {
  health: { method: 'GET', path: '/healthz', access: { kind: 'public' } },
  openapi: { method: 'GET', path: '/openapi.json', access: { kind: 'public' } },
  // The API reference (Swagger UI over GET /openapi.json) and its own files, served offline.
  docsPage: { method: 'GET', path: '/docs', access: { kind: 'public' } },
  docsAsset: { method: 'GET', path: '/docs/assets/:file', access: { kind: 'public' } },
  // The dashboard (dashboard/, built by Vite into dashboard/dist): a page that talks only to this API
  // with the key a person pastes into it, so it needs no access of its own.
  dashboardPage: { method: 'GET', path: '/dashboard', access: { kind: 'public' } },
  dashboardAsset: { method: 'GET', path: '/dashboard/assets/:file', access: { kind: 'public' } },
  file: { method: 'GET', path: /^\/files\/(.+)$/, access: { kind: 'signed_url' } },
  // Local storage's upload target: the URL POST /v1/uploads hands out (decisions §6).
  uploadFile: { method: 'PUT', path: /^\/files\/(.+)$/, access: { kind: 'signed_url' } },
  // A queue-style provider's "job changed" hint; the token in the URL is the authorization.
  providerCallback: { method: 'POST', path: '/v1/provider-callbacks/:id', access: { kind: 'signed_url' } },

  // Any valid key may read the catalog (decisions §3).
  listModels: { method: 'GET', path: '/v1/models', access: apiKey(null, 'viewer') },
  getBalance: { method: 'GET', path: '/v1/balance', access: apiKey('usage:read', 'viewer') },
  getUsage: { method: 'GET', path: '/v1/usage', access: apiKey('usage:read', 'viewer') },
  createImage: { method: 'POST', path: '/v1/images', access: apiKey('images:write', 'developer', true), idempotency: createsGeneration },
  createVideo: { method: 'POST', path: '/v1/videos', access: apiKey('videos:write', 'developer', true), idempotency: createsGeneration },
  createVoice: { method: 'POST', path: '/v1/voice', access: apiKey('voice:write', 'developer', true), idempotency: createsGeneration },
  createMusic: { method: 'POST', path: '/v1/music', access: apiKey('music:write', 'developer', true), idempotency: createsGeneration },
  createAvatar: { method: 'POST', path: '/v1/avatars', access: apiKey('avatars:write', 'developer', true), idempotency: createsGeneration },
  createChat: { method: 'POST', path: '/v1/chat', access: apiKey('chat:write', 'developer', true), idempotency: createsGeneration },
  // OpenAI's chat protocol over the same chat workflow and wallet (docs/api.md "OpenAI-compatible chat").
  openAiChatCompletion: {
    method: 'POST',
    path: '/v1/openai/chat/completions',
    access: apiKey('chat:write', 'developer', true),
    idempotency: createsGeneration,
    errorShape: 'openai',
  },
  openAiListModels: { method: 'GET', path: '/v1/openai/models', access: apiKey(null, 'viewer'), errorShape: 'openai' },
  createThreeD: { method: 'POST', path: '/v1/three-d', access: apiKey('three_d:write', 'developer', true), idempotency: createsGeneration },
  createUpscale: { method: 'POST', path: '/v1/upscale', access: apiKey('upscale:write', 'developer', true), idempotency: createsGeneration },
  listGenerations: { method: 'GET', path: '/v1/generations', access: apiKey('generations:read', 'viewer') },
  getGeneration: { method: 'GET', path: '/v1/generations/:id', access: apiKey('generations:read', 'viewer') },
  // Cancelling also needs the write scope of the generation's modality, checked by the handler.
  cancelGeneration: { method: 'POST', path: '/v1/generations/:id/cancel', access: apiKey('generations:read', 'developer') },
  // Output retention: the handler also checks the generation's modality write scope, as cancel does.
  deleteGenerationOutputs: { method: 'DELETE', path: '/v1/generations/:id/outputs', access: apiKey('generations:read', 'developer') },
  // A comparison needs the write scope of its models' modality (decisions §3), checked by the handler.
  createComparison: { method: 'POST', path: '/v1/comparisons', access: apiKey('any_modality_write', 'developer', true), idempotency: { resourcePrefix: 'cmp' } },
  // A dry run of any creation request: the key must be allowed the route it prices (checked by the handler, api/admission/quote.ts).
  createQuote: { method: 'POST', path: '/v1/quotes', access: apiKey(null, 'viewer') },
  listComparisons: { method: 'GET', path: '/v1/comparisons', access: apiKey('generations:read', 'viewer') },
  getComparison: { method: 'GET', path: '/v1/comparisons/:id', access: apiKey('generations:read', 'viewer') },
  cancelComparison: { method: 'POST', path: '/v1/comparisons/:id/cancel', access: apiKey('generations:read', 'developer') },
  // Webhooks are managed with their own scope, by admins (decisions §3).
  createWebhook: { method: 'POST', path: '/v1/webhooks', access: apiKey('webhooks:manage', 'admin') },
  listWebhooks: { method: 'GET', path: '/v1/webhooks', access: apiKey('webhooks:manage', 'admin') },
  getWebhook: { method: 'GET', path: '/v1/webhooks/:id', access: apiKey('webhooks:manage', 'admin') },
  updateWebhook: { method: 'PATCH', path: '/v1/webhooks/:id', access: apiKey('webhooks:manage', 'admin') },
  deleteWebhook: { method: 'DELETE', path: '/v1/webhooks/:id', access: apiKey('webhooks:manage', 'admin') },
  rotateWebhookSecret: { method: 'POST', path: '/v1/webhooks/:id/rotate-secret', access: apiKey('webhooks:manage', 'admin') },
  listWebhookDeliveries: { method: 'GET', path: '/v1/webhooks/:id/deliveries', access: apiKey('webhooks:manage', 'admin') },
  getWebhookDelivery: { method: 'GET', path: '/v1/webhook-deliveries/:id', access: apiKey('webhooks:manage', 'admin') },
  replayWebhookDelivery: { method: 'POST', path: '/v1/webhook-deliveries/:id/replay', access: apiKey('webhooks:manage', 'admin') },
  // Bulk recovery: replays a webhook's exhausted deliveries of a window in the background (docs/api.md "Bulk recovery").
  recoverWebhook: { method: 'POST', path: '/v1/webhooks/:id/recover', access: apiKey('webhooks:manage', 'admin') },
  getWebhookRecovery: { method: 'GET', path: '/v1/webhook-recoveries/:id', access: apiKey('webhooks:manage', 'admin') },
  // The events feed: the envelopes webhooks deliver, for receivers that poll (docs/api.md "Events").
  listEvents: { method: 'GET', path: '/v1/events', access: apiKey(EVENTS_FEED_SCOPES, 'viewer') },
  getEvent: { method: 'GET', path: '/v1/events/:id', access: apiKey(EVENTS_FEED_SCOPES, 'viewer') },
  createUpload: { method: 'POST', path: '/v1/uploads', access: apiKey('uploads:write', 'developer') },

  listApiKeys: { method: 'GET', path: '/v1/api-keys', access: apiKey('api_keys:manage', 'admin') },
  // Any key may read what it is (the dashboard shows it and hides what the key may not do).
  getCurrentApiKey: { method: 'GET', path: '/v1/api-keys/current', access: apiKey(null, 'viewer') },
  createApiKey: { method: 'POST', path: '/v1/api-keys', access: apiKey('api_keys:manage', 'admin') },
  updateApiKey: { method: 'PATCH', path: '/v1/api-keys/:id', access: apiKey('api_keys:manage', 'admin') },
  revokeApiKey: { method: 'DELETE', path: '/v1/api-keys/:id', access: apiKey('api_keys:manage', 'admin') },
  // Users are managed with the same scope as keys: who holds keys and who may mint them go together.
  listUsers: { method: 'GET', path: '/v1/users', access: apiKey('api_keys:manage', 'admin') },
  createUser: { method: 'POST', path: '/v1/users', access: apiKey('api_keys:manage', 'admin') },
  updateUser: { method: 'PATCH', path: '/v1/users/:id', access: apiKey('api_keys:manage', 'admin') },
  deactivateUser: { method: 'DELETE', path: '/v1/users/:id', access: apiKey('api_keys:manage', 'admin') },
  // The organization's own provider keys (BYOK) are secrets like API keys, so the same scope and role
  // manage them: whoever may mint the organization's keys may bring the provider keys behind them.
  listProviderCredentials: { method: 'GET', path: '/v1/provider-credentials', access: apiKey('api_keys:manage', 'admin') },
  putProviderCredential: { method: 'PUT', path: '/v1/provider-credentials/:provider', access: apiKey('api_keys:manage', 'admin') },
  deleteProviderCredential: { method: 'DELETE', path: '/v1/provider-credentials/:provider', access: apiKey('api_keys:manage', 'admin') },

  adminCreateOrganization: { method: 'POST', path: '/admin/v1/organizations', access: { kind: 'admin' } },
  adminGetOrganization: { method: 'GET', path: '/admin/v1/organizations/:id', access: { kind: 'admin' } },
  adminUpdateOrganization: { method: 'PATCH', path: '/admin/v1/organizations/:id', access: { kind: 'admin' } },
  adminAdjustCredits: { method: 'POST', path: '/admin/v1/organizations/:id/credits', access: { kind: 'admin' }, idempotency: { resourcePrefix: null } },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;
