import './accounts.css';
import { useState } from 'preact/hooks';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../../../domain/webhook-events';
import { unwrap } from '../../../clients/typescript/src/request.js';
import type { Schemas } from '../api';
import { ErrorNotice, Spinner } from '../components/async';
import { SecretOnce } from '../components/copy-button';
import { formatTime } from '../components/format';
import { Pager } from '../components/pagination';
import { mayCall } from '../permissions';
import { href, type ViewProps } from '../router';
import { useSession } from '../session-context';
import { pageQuery, useListPage } from './use-list-page';
import { WebhookStatusBadge } from './webhook-health';

// #/webhooks: this environment's subscriptions, page by page, and subscribing a new URL. The
// signing secret is shown once, in this view's state only; each subscription's page
// (#/webhooks/<id>) has its delivery log, secret rotation and deletion.

type Webhook = Schemas['Webhook'];
type EventType = Webhook['events'][number];

export function Webhooks(_props: ViewProps) {
  const { api, identity } = useSession();
  const { page, cursor, lastId } = useListPage((startingAfter) => unwrap<Schemas['WebhookList']>(api.api.GET('/v1/webhooks', { params: { query: pageQuery(startingAfter) } })));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Schemas['WebhookWithSecret']>();

  return (
    <section class="accounts" aria-labelledby="webhooks-title">
      <div class="section-head">
        <h1 id="webhooks-title">Webhooks</h1>
        {mayCall(identity, 'createWebhook') && !creating && (
          <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
            Add endpoint
          </button>
        )}
      </div>
      <p class="muted">Endpoints that receive this environment's ({identity.environment}) events, signed with their own secret.</p>
      {creating && (
        <CreateWebhookForm
          onCancel={() => setCreating(false)}
          onCreated={(webhook) => {
            setCreating(false);
            setCreated(webhook);
            page.reload();
          }}
        />
      )}
      {created && (
        <div class="card" data-testid="webhook-created">
          <SecretOnce title={`Signing secret of ${created.url}`} secret={created.secret} />
          <p class="small">
            Verify each delivery's <code>X-Service-Signature</code> header with it (the clients' <code>verifyWebhook</code>), or its Standard Webhooks headers (
            <code>verifyStandardWebhook</code>, or any Standard Webhooks library). <a href={href(['webhooks', created.id])}>Open its delivery log</a>
          </p>
        </div>
      )}
      <ErrorNotice error={page.error} />
      {!page.data && page.loading && <Spinner />}
      {page.data && page.data.data.length === 0 && <p class="muted">No endpoints yet.</p>}
      {page.data && page.data.data.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Events</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((webhook) => (
                <tr key={webhook.id} data-testid={`webhook-${webhook.id}`}>
                  <td>
                    <a class="break" href={href(['webhooks', webhook.id])}>
                      {webhook.url}
                    </a>
                    {webhook.description && <div class="muted small">{webhook.description}</div>}
                  </td>
                  <td>
                    <WebhookStatusBadge status={webhook.status} />
                    {webhook.failing_since && <div class="muted small">failing since {formatTime(webhook.failing_since)}</div>}
                  </td>
                  <td>
                    <EventTags events={webhook.events} />
                  </td>
                  <td class="small">{formatTime(webhook.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.data && <Pager cursor={cursor} hasMore={page.data.has_more} lastId={lastId} />}
    </section>
  );
}

export function EventTags({ events }: { events: readonly string[] }) {
  return (
    <span class="tags">
      {events.map((e) => (
        <code key={e}>{e === ALL_EVENTS ? '* (every event)' : e}</code>
      ))}
    </span>
  );
}

function CreateWebhookForm({ onCreated, onCancel }: { onCreated(webhook: Schemas['WebhookWithSecret']): void; onCancel(): void }) {
  const { api } = useSession();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const all = events.includes(ALL_EVENTS);
  const toggle = (event: EventType, on: boolean) => setEvents(on ? [...events, event] : events.filter((e) => e !== event));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // `*` alone: every type, including types added later.
      const body = { url: url.trim(), events: all ? [ALL_EVENTS as EventType] : events, ...(description.trim() && { description: description.trim() }) };
      onCreated(await api.webhooks.create(body));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form" onSubmit={(e) => void submit(e)} aria-labelledby="webhook-create-title">
      <h2 id="webhook-create-title">New endpoint</h2>
      <div class="field">
        <label for="webhook-url">Endpoint URL</label>
        <input id="webhook-url" type="url" required placeholder="https://example.com/webhooks" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </div>
      <fieldset class="checkbox-grid">
        <legend>Events</legend>
        <label for="event-all">
          <input id="event-all" type="checkbox" checked={all} onChange={(e) => toggle(ALL_EVENTS, e.currentTarget.checked)} />
          <span>Every event, including types added later</span>
        </label>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} for={`event-${type}`}>
            <input id={`event-${type}`} type="checkbox" disabled={all} checked={all || events.includes(type)} onChange={(e) => toggle(type, e.currentTarget.checked)} />
            <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="webhook-description">Description</label>
        <input id="webhook-description" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </div>
      <div class="form-row">
        <button type="submit" class="btn btn-primary" disabled={busy || !url.trim() || events.length === 0}>
          {busy ? <Spinner label="Creating…" /> : 'Add endpoint'}
        </button>
        <button type="button" class="btn btn-plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
