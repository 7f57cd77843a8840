import type { components } from '../generated/openapi.js';
import { paginate } from '../pagination.js';
import { idempotencyHeaders, unwrap, type Api, type RequestOptions } from '../request.js';
import type { Query, RequestBody } from '../types.js';

// The organization's own resources as typed pass-throughs: webhooks, the events feed, API keys,
// balance, usage and the model catalog. Anything not wrapped here is reachable, typed, through `client.api`.

type Schemas = components['schemas'];

const after = (startingAfter: string | undefined) => (startingAfter ? { starting_after: startingAfter } : {});

export function webhooksResource(api: Api) {
  return {
    create: (body: RequestBody<'/v1/webhooks', 'post'>, options?: RequestOptions) =>
      unwrap<Schemas['WebhookWithSecret']>(api.POST('/v1/webhooks', { body, headers: idempotencyHeaders(options) })),
    get: (id: string) => unwrap<Schemas['Webhook']>(api.GET('/v1/webhooks/{id}', { params: { path: { id } } })),
    list: () => paginate<Schemas['Webhook']>((startingAfter) => unwrap(api.GET('/v1/webhooks', { params: { query: after(startingAfter) } }))),
    delete: (id: string) => unwrap<Schemas['DeletedWebhook']>(api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } })),
    /** `{ status: 'enabled' }` resumes deliveries to a disabled webhook. */
    update: (id: string, body: RequestBody<'/v1/webhooks/{id}', 'patch'>) => unwrap<Schemas['Webhook']>(api.PATCH('/v1/webhooks/{id}', { params: { path: { id } }, body })),
    /** A new secret; the old one keeps signing (next to it) until its grace period ends. */
    rotateSecret: (id: string, options?: RequestOptions) =>
      unwrap<Schemas['WebhookWithSecret']>(api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id } }, headers: idempotencyHeaders(options) })),
    deliveries: (id: string) =>
      paginate<Schemas['WebhookDelivery']>((startingAfter) => unwrap(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: after(startingAfter) } }))),
  };
}

/** GET /v1/events: the envelopes deliveries carry, newest first, for a receiver that polls. */
export function eventsResource(api: Api) {
  return {
    list: (query: Omit<Query<'/v1/events', 'get'>, 'starting_after'> = {}) =>
      paginate<Schemas['Event']>((startingAfter) => unwrap(api.GET('/v1/events', { params: { query: { ...query, ...after(startingAfter) } } }))),
    get: (id: string) => unwrap<Schemas['Event']>(api.GET('/v1/events/{id}', { params: { path: { id } } })),
  };
}

export function apiKeysResource(api: Api) {
  return {
    create: (body: RequestBody<'/v1/api-keys', 'post'>, options?: RequestOptions) =>
      unwrap<Schemas['ApiKeyWithSecret']>(api.POST('/v1/api-keys', { body, headers: idempotencyHeaders(options) })),
    list: () => paginate<Schemas['ApiKey']>((startingAfter) => unwrap(api.GET('/v1/api-keys', { params: { query: after(startingAfter) } }))),
    update: (id: string, body: RequestBody<'/v1/api-keys/{id}', 'patch'>) => unwrap<Schemas['ApiKey']>(api.PATCH('/v1/api-keys/{id}', { params: { path: { id } }, body })),
    revoke: (id: string) => unwrap<Schemas['ApiKey']>(api.DELETE('/v1/api-keys/{id}', { params: { path: { id } } })),
  };
}

export function accountResources(api: Api) {
  return {
    webhooks: webhooksResource(api),
    events: eventsResource(api),
    apiKeys: apiKeysResource(api),
    balance: { get: () => unwrap<Schemas['Balance']>(api.GET('/v1/balance')) },
    // The operation answers JSON or CSV by `format`; each method asks for one and is typed for it.
    usage: {
      /** The usage rows; `csv` answers the same as CSV text. */
      get: (query: Omit<Query<'/v1/usage', 'get'>, 'format'> = {}) =>
        unwrap<Schemas['Usage']>(api.GET('/v1/usage', { params: { query } }) as Promise<{ data?: Schemas['Usage']; response: Response }>),
      csv: (query: Omit<Query<'/v1/usage', 'get'>, 'format'> = {}) =>
        unwrap<string>(api.GET('/v1/usage', { params: { query: { ...query, format: 'csv' } }, parseAs: 'text' }) as Promise<{ data?: string; response: Response }>),
    },
    /** The catalog is one page (`has_more` is always false); the query filters it. */
    models: { list: (query: Query<'/v1/models', 'get'> = {}) => unwrap<Schemas['ModelList']>(api.GET('/v1/models', { params: { query } })) },
  };
}
