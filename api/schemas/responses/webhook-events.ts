// The body a webhook receiver gets for each event type (domain/webhook-events.ts `webhookEnvelope`),
// with the `data` its writer puts in the outbox: domain/generation-events.ts, domain/comparison-status.ts,
// the budget statements of db/migrations/0017-budget-months.ts, activities/anomaly-detector.ts and
// db/repos/webhook-health.ts.

import type { BudgetThresholdData, DeliveryExhaustedData, EndpointDisabledData, WebhookEventType } from '../../../domain/webhook-events';
import type { ComparisonVerdict } from '../../../domain/comparison-status';
import { MODALITIES } from '../../../domain/modalities';
import { credits, enumOf, id, nullableTimestamp, timestamp } from './shared';

const BUDGET_THRESHOLDS = [50, 80, 100] as const satisfies readonly BudgetThresholdData['threshold'][];
const BUDGET_REASONS = ['crossed', 'reached', 'request_refused'] as const satisfies readonly BudgetThresholdData['reason'][];
const COMPARISON_VERDICTS = ['succeeded', 'partial', 'failed'] as const satisfies readonly ComparisonVerdict[];

/** The envelope: the same `id` on every attempt and replay, so a receiver can drop duplicates. */
function eventOf(type: WebhookEventType, description: string, data: { required: string[]; properties: Record<string, object> }) {
  return {
    type: 'object',
    description: `${description} Signed in the \`X-Service-Signature\` header.`,
    additionalProperties: false,
    required: ['id', 'type', 'created_at', 'data'],
    properties: {
      id: { ...id, description: 'The event id: the same on every attempt and replay of it.' },
      type: { const: type },
      created_at: timestamp,
      data: { type: 'object', additionalProperties: false, ...data },
    },
  };
}

/** `data.sequence` (db/migrations/0021-event-sequence-and-feed.ts): the resource's status changes so far. */
const sequence = {
  type: 'integer',
  minimum: 1,
  description:
    'Grows with each status change of this generation or comparison: of two events about the same resource, the one with the lower sequence is stale. On every event written since the service had it (migration 0021); older events have none.',
};

const generationData = (status: 'succeeded' | 'failed') => ({
  required: ['generation_id', 'modality', 'status', 'charged_credits'],
  properties: { generation_id: id, modality: enumOf(MODALITIES), status: { const: status }, charged_credits: credits('Credits charged'), sequence },
});

const EVENTS: Record<WebhookEventType, { name: string; schema: object }> = {
  'generation.completed': { name: 'GenerationCompletedEvent', schema: eventOf('generation.completed', 'A generation succeeded.', generationData('succeeded')) },
  'generation.failed': { name: 'GenerationFailedEvent', schema: eventOf('generation.failed', 'A generation failed; its credits were refunded.', generationData('failed')) },
  'comparison.completed': {
    name: 'ComparisonCompletedEvent',
    schema: eventOf('comparison.completed', 'Every model of a comparison finished.', {
      required: ['comparison_id', 'status', 'modality', 'reserved_credits', 'charged_credits', 'refunded_credits', 'generation_ids'],
      properties: {
        comparison_id: id,
        status: enumOf(COMPARISON_VERDICTS),
        modality: enumOf(MODALITIES),
        reserved_credits: credits('Credits held for all models together'),
        charged_credits: credits('Credits charged, all models together'),
        refunded_credits: credits('Credits given back, all models together'),
        generation_ids: { type: 'array', items: id },
        sequence,
      },
    }),
  },
  'usage.budget_threshold': {
    name: 'BudgetThresholdEvent',
    schema: eventOf('usage.budget_threshold', "An API key's spend this month reached 50, 80 or 100 % of its monthly budget.", {
      required: ['threshold', 'reason', 'api_key_id', 'budget_usd', 'spent_usd', 'period'],
      properties: {
        threshold: { type: 'integer', enum: [...BUDGET_THRESHOLDS], description: 'Percent of the budget.' },
        reason: enumOf(BUDGET_REASONS, '`crossed` for 50 and 80; for 100, `reached`, or `request_refused` when the budget refused a request first.'),
        api_key_id: id,
        budget_usd: { type: 'number' },
        spent_usd: { type: 'number', description: "The month's spend, reservations in flight included." },
        period: { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'The month, `YYYY-MM`, UTC.' },
      },
    }),
  },
  'usage.anomaly_detected': {
    name: 'AnomalyDetectedEvent',
    schema: eventOf('usage.anomaly_detected', 'The organization spent far above its usual rate and was paused.', {
      required: ['organization_id', 'window_spend_credits', 'window_spend_usd', 'baseline_average_credits', 'factor', 'floor_credits', 'window_start', 'window_end', 'paused_at'],
      properties: {
        organization_id: id,
        window_spend_credits: credits('Live spend in the 10-minute window'),
        window_spend_usd: { type: 'number' },
        baseline_average_credits: { type: 'number', description: 'The average spend per 10 minutes over the previous 7 days.' },
        factor: { type: 'number', description: 'How many times the baseline counts as an anomaly.' },
        floor_credits: credits('The spend below which no window is an anomaly'),
        window_start: timestamp,
        window_end: timestamp,
        paused_at: timestamp,
      },
    }),
  },
  'webhook.endpoint_disabled': {
    name: 'EndpointDisabledEvent',
    schema: eventOf(
      'webhook.endpoint_disabled',
      'A webhook of the organization was disabled (never sent to that webhook itself); `PATCH` it with `{"status": "enabled"}` to resume.',
      {
        required: ['subscription_id', 'url', 'reason', 'failing_since', 'disabled_at'] satisfies (keyof EndpointDisabledData)[],
        properties: {
          subscription_id: id,
          url: { type: 'string', format: 'uri' },
          reason: { type: 'string', description: 'Why: a 410 Gone, or every delivery failed for `WEBHOOK_DISABLE_AFTER`.' },
          failing_since: { ...nullableTimestamp, description: 'Since when every attempt had failed.' },
          disabled_at: timestamp,
        },
      },
    ),
  },
  'webhook.delivery_exhausted': {
    name: 'DeliveryExhaustedEvent',
    schema: eventOf('webhook.delivery_exhausted', 'A delivery to a webhook of the organization ended `exhausted` (never sent to that webhook itself).', {
      required: ['subscription_id', 'delivery_id', 'event_id', 'event_type', 'attempt_count'] satisfies (keyof DeliveryExhaustedData)[],
      properties: {
        subscription_id: id,
        delivery_id: id,
        event_id: { ...id, description: 'The event the delivery carried.' },
        event_type: { type: 'string' },
        attempt_count: { type: 'integer', description: 'Attempts sent before it gave up.' },
      },
    }),
  },
};

/** Event type → the component describing its body. */
export const WEBHOOK_EVENT_COMPONENTS = Object.fromEntries(Object.entries(EVENTS).map(([type, e]) => [type, e.name])) as Record<WebhookEventType, string>;

export const WEBHOOK_EVENT_SCHEMAS: Record<string, object> = Object.fromEntries(Object.values(EVENTS).map((e) => [e.name, e.schema]));
