import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-events';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../../domain/webhook-retry-schedule';
import { WEBHOOK_SIGNATURE_TOLERANCE_S } from '../../domain/webhook-signature';
import { WEBHOOK_EVENT_COMPONENTS } from '../schemas/responses';

// OpenAPI 3.1 `webhooks`: what a subscribed URL receives, one entry per event type, with the
// headers every delivery carries (activities/webhooks/attempt.ts sends them): ours and, beside
// them, Standard Webhooks' (domain/webhook-signature.ts signs both).

const SIGNATURE_DESCRIPTION =
  `\`t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<raw body>">\` keyed with the webhook’s secret (Stripe’s scheme). ` +
  `During a secret rotation there is one \`v1=\` per live secret: accept the delivery if any matches. Refuse a \`t\` more than ${WEBHOOK_SIGNATURE_TOLERANCE_S} s from your clock.`;

const STANDARD_SIGNATURE_DESCRIPTION =
  'Standard Webhooks: `v1,<base64 HMAC-SHA-256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed with the base64-decoded part of the secret after `whsec_`; ' +
  'a Standard Webhooks library given the `whsec_…` secret as it is (e.g. `new Webhook(secret).verify(body, headers)`) derives that key. ' +
  'During a secret rotation there is one `v1,` per live secret, space-separated: accept the delivery if any matches.';

const DELIVERY_HEADERS = [
  { name: 'X-Service-Signature', in: 'header', required: true, description: SIGNATURE_DESCRIPTION, schema: { type: 'string' } },
  { name: 'X-Service-Event', in: 'header', required: true, description: 'The event type, as in the body.', schema: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] } },
  { name: 'X-Service-Delivery', in: 'header', required: true, description: 'The delivery’s id (a replay has a new one; the event id stays).', schema: { type: 'string' } },
  // Standard Webhooks (https://www.standardwebhooks.com): its stock libraries verify these three with the `whsec_…` secret as it is.
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the event’s id, as in the body; the same on every attempt and replay.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: this attempt’s time in unix seconds (the `t` of X-Service-Signature).',
    schema: { type: 'string' },
  },
  { name: 'webhook-signature', in: 'header', required: true, description: STANDARD_SIGNATURE_DESCRIPTION, schema: { type: 'string' } },
];

const EVENT_SUMMARIES: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  'generation.completed': 'A generation succeeded',
  'generation.failed': 'A generation failed (and was refunded)',
  'comparison.completed': 'A comparison has its verdict',
  'usage.budget_threshold': 'A key’s monthly budget crossed 50, 80 or 100%',
  'usage.anomaly_detected': 'Spending far above the usual rate',
  'webhook.endpoint_disabled': 'Another webhook of the organization was disabled',
  'webhook.delivery_exhausted': 'A delivery to another webhook of the organization gave up',
};

const operationIdOf = (type: string) => `on${type.replace(/(^|[._])([a-z])/g, (_m, _sep: string, letter: string) => letter.toUpperCase())}`;

export function webhooksSection(): Record<string, object> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: operationIdOf(type),
          tags: ['Webhooks'],
          // Nothing to authenticate with: the receiver verifies X-Service-Signature (or webhook-signature) instead.
          security: [],
          summary: EVENT_SUMMARIES[type],
          description:
            'Sent to every webhook subscribed to this type (or to `*`). Any 2xx ends the delivery; anything else (or no answer within `WEBHOOK_TIMEOUT_MS`, 15 s by default) ' +
            `is retried on \`WEBHOOK_RETRY_SCHEDULE\` (by default ${DEFAULT_WEBHOOK_RETRY_SCHEDULE}), then the delivery is \`exhausted\` and can be replayed.`,
          parameters: DELIVERY_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${WEBHOOK_EVENT_COMPONENTS[type]}` } } } },
          responses: { '200': { description: 'Received (any 2xx).' } },
        },
      },
    ]),
  );
}
