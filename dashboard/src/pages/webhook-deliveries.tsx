import { useEffect, useState } from 'preact/hooks';
import { unwrap } from '../../../clients/typescript/src/request.js';
import type { Schemas } from '../api';
import { ActionButton, ErrorNotice, Spinner, useAsync } from '../components/async';
import { formatDuration, formatTime } from '../components/format';
import { Pager } from '../components/pagination';
import { useSession } from '../session-context';
import { pageQuery, useListPage } from './use-list-page';

// A subscription's delivery log: each delivery with its status and every attempt (the receiver's
// status code, latency, the start of its answer or the error), newest first, page by page. A
// finished delivery can be replayed (POST /v1/webhook-deliveries/<id>/replay): the replay is a new
// delivery of the same event, followed here until it finishes.

type Delivery = Schemas['WebhookDelivery'];

/** How often a page with deliveries still in progress is read again. */
const REFRESH_MS = 1500;

const inProgress = (d: Delivery) => d.status === 'pending' || d.status === 'failed';

/** Reloads every REFRESH_MS while `active`, so a person watches retries happen without clicking. */
function useRefreshWhile(active: boolean, loading: boolean, reload: () => void): void {
  useEffect(() => {
    if (!active || loading) return;
    const timer = setTimeout(reload, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [active, loading, reload]);
}

export function DeliveryLog({ webhookId, status }: { webhookId: string; status: Delivery['status'] | undefined }) {
  const { api } = useSession();
  const { page, cursor, lastId } = useListPage(
    (startingAfter) =>
      unwrap<Schemas['WebhookDeliveryList']>(
        api.api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { ...pageQuery(startingAfter), ...(status && { status }) } } }),
      ),
    [webhookId, status],
  );
  const [replayed, setReplayed] = useState<Delivery>();
  // Only a refresh the person asked for shows progress: the automatic ones would make the button flicker.
  const [refreshing, setRefreshing] = useState(false);
  useEffect(() => {
    if (!page.loading) setRefreshing(false);
  }, [page.loading]);
  useRefreshWhile(page.data?.data.some(inProgress) ?? false, page.loading, page.reload);

  return (
    <>
      {replayed && <ReplayNotice replay={replayed} />}
      <ErrorNotice error={page.error} />
      <div class="toolbar">
        <button
          type="button"
          class="btn btn-plain"
          onClick={() => {
            setRefreshing(true);
            page.reload();
          }}
          disabled={refreshing}
        >
          {refreshing ? <Spinner label="Refreshing…" /> : 'Refresh'}
        </button>
      </div>
      {!page.data && page.loading && <Spinner />}
      {page.data && page.data.data.length === 0 && <p class="muted">No deliveries{status ? ` that are ${status}` : ''} yet.</p>}
      {page.data && page.data.data.length > 0 && (
        <div class="table-wrap">
          <table class="delivery-log">
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((delivery) => (
                <tr key={delivery.id} data-testid={`delivery-${delivery.id}`}>
                  <td>
                    <code>{delivery.event_type}</code>
                    <div class="muted small break">
                      {delivery.id} · event {delivery.event_id}
                    </div>
                    {delivery.replay_of && <div class="small">replay of {delivery.replay_of}</div>}
                    <div class="muted small">{formatTime(delivery.created_at)}</div>
                  </td>
                  <td>
                    <DeliveryStatus delivery={delivery} />
                  </td>
                  <td>
                    <Attempts delivery={delivery} />
                  </td>
                  <td>
                    {(delivery.status === 'exhausted' || delivery.status === 'succeeded') && (
                      <ActionButton
                        variant={delivery.status === 'exhausted' ? 'primary' : 'plain'}
                        action={() => unwrap<Delivery>(api.api.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: delivery.id } } }))}
                        onDone={(replay) => {
                          setReplayed(replay);
                          cursor.reset();
                          page.reload();
                        }}
                        busyLabel="Replaying…"
                      >
                        Replay
                      </ActionButton>
                    )}
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

function DeliveryStatus({ delivery }: { delivery: Delivery }) {
  return (
    <>
      <span class={`badge badge-${delivery.status}`} data-testid="delivery-status">
        {delivery.status}
      </span>
      {delivery.status === 'failed' && delivery.next_attempt_at && <div class="muted small">retry at {formatTime(delivery.next_attempt_at)}</div>}
      {delivery.finished_at && <div class="muted small">finished {formatTime(delivery.finished_at)}</div>}
    </>
  );
}

function Attempts({ delivery }: { delivery: Delivery }) {
  if (!delivery.attempts.length) return <span class="muted">none yet</span>;
  return (
    <details>
      <summary data-testid="attempt-count">
        {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? '' : 's'}
      </summary>
      <ol class="attempts">
        {delivery.attempts.map((a) => (
          <li key={a.number} data-testid="attempt">
            <strong>#{a.number}</strong> <span class={a.status_code !== null && a.status_code < 300 ? 'status-succeeded' : 'status-failed'}>{a.status_code ?? 'no answer'}</span> ·{' '}
            {formatDuration(a.latency_ms)} · <span class="muted small">{formatTime(a.created_at)}</span>
            {a.error && <div class="small status-failed">{a.error}</div>}
            {a.response_body && <pre>{a.response_body}</pre>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The replay just sent, read again (GET /v1/webhook-deliveries/<id>) until it finishes. */
function ReplayNotice({ replay }: { replay: Delivery }) {
  const { api } = useSession();
  const current = useAsync(() => unwrap<Delivery>(api.api.GET('/v1/webhook-deliveries/{id}', { params: { path: { id: replay.id } } })), [replay.id]);
  const delivery = current.data ?? replay;
  useRefreshWhile(inProgress(delivery), current.loading, current.reload);
  return (
    <div class="notice" role="status" data-testid="replay-notice">
      Replayed as <code>{delivery.id}</code>: <DeliveryStatus delivery={delivery} />
      {delivery.attempts.length > 0 && <Attempts delivery={delivery} />}
      <ErrorNotice error={current.error} />
    </div>
  );
}
