import './accounts.css';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../domain/webhook-events';
import { unwrap } from '../../../clients/typescript/src/request.js';
import type { Schemas } from '../api';
import { ErrorNotice, Spinner } from '../components/async';
import { formatTime } from '../components/format';
import { Pager } from '../components/pagination';
import { href, navigate, type ViewProps } from '../router';
import { useSession } from '../session-context';
import { pageQuery, useListPage } from './use-list-page';

// #/events: the events feed (GET /v1/events), the same envelopes webhook deliveries carry, newest
// first, a page at a time, filtered by type through the hash (`?type=generation.failed`) so a
// reload keeps the filter. What a receiver that missed deliveries would read to catch up.

type Event = Schemas['Event'];

const isType = (value: string | null): value is WebhookEventType => WEBHOOK_EVENT_TYPES.includes(value as WebhookEventType);

export function Events({ location }: ViewProps) {
  const type = location.query.get('type');
  const filter = isType(type) ? type : undefined;
  return (
    <section class="accounts" aria-labelledby="events-title">
      <div class="section-head">
        <h1 id="events-title">Events</h1>
        <div class="field">
          <label for="event-type">Type</label>
          <select id="event-type" value={filter ?? ''} onChange={(e) => navigate(href('events', { type: e.currentTarget.value }))}>
            <option value="">all</option>
            {WEBHOOK_EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p class="muted">What happened in this environment, as webhook deliveries carry it; kept for the retention period.</p>
      <EventList key={filter ?? ''} type={filter} />
    </section>
  );
}

function EventList({ type }: { type: WebhookEventType | undefined }) {
  const { api } = useSession();
  const { page, cursor, lastId } = useListPage((startingAfter) =>
    unwrap<Schemas['EventList']>(api.api.GET('/v1/events', { params: { query: { ...pageQuery(startingAfter), ...(type && { type }) } } })),
  );
  return (
    <>
      <ErrorNotice error={page.error} />
      {!page.data && page.loading && <Spinner />}
      {page.data && page.data.data.length === 0 && <p class="muted">No events.</p>}
      {page.data && page.data.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Type</th>
                <th scope="col">Created</th>
                <th scope="col">Data</th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((event: Event) => (
                <tr key={event.id} data-testid={`event-${event.id}`}>
                  <td class="mono small">{event.id}</td>
                  <td>
                    <code data-testid="event-type">{event.type}</code>
                  </td>
                  <td class="small">{formatTime(event.created_at)}</td>
                  <td>
                    <details>
                      <summary>data</summary>
                      <pre class="small break">{JSON.stringify(event.data, null, 2)}</pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.data && <Pager cursor={cursor} hasMore={page.data.has_more} lastId={lastId} />}
    </>
  );
}
