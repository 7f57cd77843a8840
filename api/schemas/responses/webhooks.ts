// Webhook subscriptions and their deliveries (api/presenters/webhook.ts), and the deleted-webhook
// answer of DELETE /v1/webhooks/{id} (api/routes/webhooks.ts).

import { WEBHOOK_SUBSCRIPTION_STATUSES } from '../../../domain/webhook-endpoint-health';
import { ALL_EVENTS, DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '../../../domain/webhook-events';
import { enumOf, id, listOf, nullableString, nullableTimestamp, ref, timestamp } from './shared';

const webhookProperties = {
  id,
  object: { const: 'webhook' },
  url: { type: 'string', format: 'uri' },
  events: { type: 'array', items: enumOf([...WEBHOOK_EVENT_TYPES, ALL_EVENTS]), description: '`*` subscribes to every type, including types added later.' },
  description: nullableString,
  created_at: timestamp,
  previous_secret_expires_at: {
    ...nullableTimestamp,
    description: 'After a rotation, until when deliveries also carry a signature made with the previous secret.',
  },
  status: enumOf(WEBHOOK_SUBSCRIPTION_STATUSES, '`disabled`: nothing is sent to it (a 410 Gone, or every delivery failed for `WEBHOOK_DISABLE_AFTER`) until it is enabled again.'),
  disabled_reason: { ...nullableString, description: 'Why it is disabled; null while enabled.' },
  last_success_at: { ...nullableTimestamp, description: 'Its last delivery the receiver accepted (to the second).' },
  failing_since: { ...nullableTimestamp, description: 'Since when every attempt has failed; null after a success.' },
  max_deliveries_per_second: { type: ['number', 'null'], description: 'At most this many deliveries a second; deliveries above it wait for their turn. Null: unlimited.' },
};
const webhookRequired = Object.keys(webhookProperties);

const Webhook = { type: 'object', additionalProperties: false, required: webhookRequired, properties: webhookProperties };

const WebhookWithSecret = {
  type: 'object',
  additionalProperties: false,
  required: [...webhookRequired, 'secret'],
  properties: { ...webhookProperties, secret: { type: 'string', description: 'The signing secret. Shown only this once (on creation and rotation): store it now.' } },
};

const DeletedWebhook = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'deleted'],
  properties: { id, object: { const: 'webhook' }, deleted: { const: true } },
};

const WebhookDeliveryAttempt = {
  type: 'object',
  additionalProperties: false,
  required: ['number', 'status_code', 'latency_ms', 'error', 'response_body', 'throttled_ms', 'created_at'],
  properties: {
    number: { type: 'integer' },
    status_code: { type: ['integer', 'null'], description: "The receiver's HTTP status; null when it never answered." },
    latency_ms: { type: 'integer' },
    error: nullableString,
    response_body: { ...nullableString, description: "The start of the receiver's answer." },
    throttled_ms: {
      type: 'integer',
      description: "How long this attempt waited for its turn under the webhook's `max_deliveries_per_second` before it was sent; 0 when it did not.",
    },
    created_at: timestamp,
  },
};

const WebhookDelivery = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'webhook_id', 'event_id', 'event_type', 'status', 'attempt_count', 'next_attempt_at', 'replay_of', 'created_at', 'finished_at', 'attempts'],
  properties: {
    id,
    object: { const: 'webhook_delivery' },
    webhook_id: id,
    event_id: id,
    event_type: enumOf(WEBHOOK_EVENT_TYPES),
    status: enumOf(DELIVERY_STATUSES, '`exhausted`: every retry failed.'),
    attempt_count: { type: 'integer' },
    next_attempt_at: nullableTimestamp,
    replay_of: { ...nullableString, description: 'The delivery this one replays, if it is a replay.' },
    created_at: timestamp,
    finished_at: nullableTimestamp,
    attempts: { type: 'array', items: ref('WebhookDeliveryAttempt') },
  },
};

export const WEBHOOK_SCHEMAS = {
  Webhook,
  WebhookWithSecret,
  DeletedWebhook,
  WebhookList: listOf('Webhook'),
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryList: listOf('WebhookDelivery'),
};
