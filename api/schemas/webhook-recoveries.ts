import { ApiError } from '../errors';
import { compileValidator } from './ajv';
import { isStorableInstant } from './events';

// POST /v1/webhooks/{id}/recover's body: the window of deliveries to replay (docs/api.md "Bulk
// recovery"). Instants are RFC 3339, read as the events feed reads its filters.

export interface RecoverWebhookRequest {
  since: string;
  until?: string;
}

const validate = compileValidator<RecoverWebhookRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['since'],
  properties: {
    since: {
      type: 'string',
      format: 'date-time',
      maxLength: 40,
      description: 'Replay exhausted deliveries created at or after this instant (RFC 3339), within EVENT_RETENTION_DAYS.',
    },
    until: { type: 'string', format: 'date-time', maxLength: 40, description: 'And before this instant (RFC 3339, not in the future); omitted, the time of the request.' },
  },
});

/** The body, or 400 validation_failed naming the field. */
export const parseRecoverWebhook = Object.assign(
  (data: unknown): RecoverWebhookRequest => {
    const body = validate(data);
    for (const param of ['since', 'until'] as const) {
      const value = body[param];
      if (value !== undefined && !isStorableInstant(value)) {
        throw new ApiError('validation_failed', `Invalid ${param}: must be an RFC 3339 instant between the years 1 and 9999 (a leap second such as 23:59:60 is not one).`, {
          param,
        });
      }
    }
    return body;
  },
  { schema: validate.schema },
);
