import { compileValidator } from './ajv';
import { refuseUnstorableInstants } from './instants';

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
    refuseUnstorableInstants(body, ['since', 'until']);
    return body;
  },
  { schema: validate.schema },
);
