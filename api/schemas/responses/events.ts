// GET /v1/events's components: an event is exactly the envelope a webhook delivers
// (./webhook-events.ts has one component per type), so the feed and the deliveries share one schema.

import { WEBHOOK_EVENT_COMPONENTS } from './webhook-events';
import { listOf, ref } from './shared';

export const EVENT_SCHEMAS: Record<string, object> = {
  Event: {
    description: 'An event: the same envelope (id, type, created_at, data) its webhook deliveries carry.',
    oneOf: Object.values(WEBHOOK_EVENT_COMPONENTS).map(ref),
  },
  EventList: listOf('Event'),
};
