import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, ALL_EVENTS, type DeliveryStatus } from '../../domain/webhook-events';
import { MAX_DELIVERIES_PER_SECOND, MIN_DELIVERIES_PER_SECOND } from '../../domain/webhook-throttle';
import { compileValidator } from './ajv';
import { withProperty } from './documented-schema';
import { urlField } from './fields';
import { LIST_QUERY_PROPERTIES, type ListQuery } from './list-query';

export interface CreateWebhookRequest {
  url: string;
  events: string[];
  description?: string;
  max_deliveries_per_second?: number | null;
}

/** Per-endpoint throttling (docs/api.md, "Throttling"): null, the default, is unlimited. */
const maxDeliveriesPerSecondField = {
  type: ['number', 'null'],
  minimum: MIN_DELIVERIES_PER_SECOND,
  maximum: MAX_DELIVERIES_PER_SECOND,
  description: `At most this many deliveries a second (${MIN_DELIVERIES_PER_SECOND} to ${MAX_DELIVERIES_PER_SECOND}); deliveries above it wait for their turn. Null: unlimited.`,
};

// Spec §4 /v1/webhooks. Unknown event types are refused, so a typo never subscribes to nothing.
const validateCreateWebhook = compileValidator<CreateWebhookRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: {
    url: urlField,
    events: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES, ALL_EVENTS] } },
    description: { type: 'string', maxLength: 500 },
    max_deliveries_per_second: maxDeliveriesPerSecondField,
  },
});

/** The body's schema as the OpenAPI document prints it: `events` may also be the string `"*"`. */
export const CREATE_WEBHOOK_SCHEMA = withProperty(validateCreateWebhook.schema, 'events', (events) => ({ anyOf: [events, { const: ALL_EVENTS }] }));

/** A create body; `events: "*"` (a plain string) is read as `["*"]` (decisions §5). */
export function parseCreateWebhook(body: unknown): CreateWebhookRequest {
  const isAllEvents = typeof body === 'object' && body !== null && (body as { events?: unknown }).events === ALL_EVENTS;
  return validateCreateWebhook(isAllEvents ? { ...body, events: [ALL_EVENTS] } : body);
}

export interface UpdateWebhookRequest {
  status?: 'enabled';
  max_deliveries_per_second?: number | null;
}

/**
 * PATCH /v1/webhooks/{id}: re-enabling a disabled webhook (docs/api.md, "Endpoint health") and its
 * delivery rate ("Throttling"); at least one of them.
 */
export const parseUpdateWebhook = compileValidator<UpdateWebhookRequest>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    status: { const: 'enabled', description: '`enabled` resumes deliveries to a disabled webhook.' },
    max_deliveries_per_second: maxDeliveriesPerSecondField,
  },
});

export interface DeliveryListQuery extends ListQuery {
  status?: DeliveryStatus;
}

export const parseDeliveryListQuery = compileValidator<DeliveryListQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    ...LIST_QUERY_PROPERTIES,
    status: { type: 'string', enum: [...DELIVERY_STATUSES] },
  },
});
