import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhook-events';
import { ApiError } from '../errors';
import { compileValidator } from './ajv';
import { refuseUnstorableInstants } from './instants';
import { LIST_QUERY_PROPERTIES, type ListQuery } from './list-query';

// GET /v1/events's query: the page parameters every list takes, `ending_before` to page towards
// newer events (a poller catching up walks that way), and the type and creation-time filters.

export interface EventListQuery extends ListQuery {
  ending_before?: string;
  type?: WebhookEventType;
  created_after?: string;
  created_before?: string;
}

const parseSchema = compileValidator<EventListQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    ...LIST_QUERY_PROPERTIES,
    ending_before: { type: 'string', minLength: 1, maxLength: 100, description: 'An event id: the page of events just newer than it (still newest first).' },
    type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES], description: 'Only events of this type.' },
    created_after: { type: 'string', format: 'date-time', maxLength: 40, description: 'Only events created after this instant (RFC 3339).' },
    created_before: { type: 'string', format: 'date-time', maxLength: 40, description: 'Only events created before this instant (RFC 3339).' },
  },
});

/** The query, or 400 validation_failed naming the field: bad values, both cursors at once, or an empty time window. */
export const parseEventListQuery = Object.assign(
  (data: unknown): EventListQuery => {
    const query = parseSchema(data);
    refuseUnstorableInstants(query, ['created_after', 'created_before']);
    if (query.starting_after !== undefined && query.ending_before !== undefined) {
      throw new ApiError('validation_failed', 'Invalid ending_before: give starting_after or ending_before, not both.', { param: 'ending_before' });
    }
    if (query.created_after !== undefined && query.created_before !== undefined && Date.parse(query.created_after) >= Date.parse(query.created_before)) {
      throw new ApiError('validation_failed', 'Invalid created_before: must be later than created_after.', { param: 'created_before' });
    }
    return query;
  },
  { schema: parseSchema.schema },
);
