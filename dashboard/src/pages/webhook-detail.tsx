import './accounts.css';
import { useState } from 'preact/hooks';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../domain/webhook-events';
import type { Schemas } from '../api';
import { ActionButton, ErrorNotice, Spinner, useAsync } from '../components/async';
import { SecretOnce } from '../components/copy-button';
import { formatTime } from '../components/format';
import { href, navigate, type ViewProps } from '../router';
import { useSession } from '../session-context';
import { DeliveryLog } from './webhook-deliveries';
import { WebhookHealth } from './webhook-health';
import { EventTags } from './webhooks';

// #/webhooks/<id>: one subscription: what it receives, its health (enabling it again once
// disabled), rotating its secret (the new one shown once; the old one keeps signing for a day),
// deleting it, and its delivery log, filtered by
// status through the hash (`?status=exhausted`) so a reload keeps the filter.

const isStatus = (value: string | null): value is DeliveryStatus => DELIVERY_STATUSES.includes(value as DeliveryStatus);

export function WebhookDetail({ location }: ViewProps) {
  const { api } = useSession();
  const id = location.segments[1] ?? '';
  const status = location.query.get('status');
  const webhook = useAsync(() => api.webhooks.get(id), [id]);
  const [rotated, setRotated] = useState<Schemas['WebhookWithSecret']>();

  return (
    <section class="accounts" aria-labelledby="webhook-title">
      <p class="small">
        <a href={href('webhooks')}>← Webhooks</a>
      </p>
      <h1 id="webhook-title" class="break">
        {webhook.data?.url ?? 'Webhook'}
      </h1>
      <ErrorNotice error={webhook.error} />
      {!webhook.data && webhook.loading && <Spinner />}
      {webhook.data && <WebhookHealth webhook={webhook.data} onEnabled={() => webhook.reload()} />}
      {webhook.data && (
        <div class="card">
          <p>
            <span class="muted">Events:</span> <EventTags events={webhook.data.events} />
          </p>
          {webhook.data.description && <p>{webhook.data.description}</p>}
          <p class="muted small">
            {webhook.data.id} · created {formatTime(webhook.data.created_at)}
            {webhook.data.previous_secret_expires_at && ` · the previous secret also signs until ${formatTime(webhook.data.previous_secret_expires_at)}`}
          </p>
          <div class="row-actions">
            <ActionButton
              confirm="Rotate the signing secret? Deliveries are signed with both the new and the old secret for 24 hours, so you can switch your receiver without downtime."
              action={() => api.webhooks.rotateSecret(id)}
              onDone={(result) => {
                setRotated(result);
                webhook.reload();
              }}
              busyLabel="Rotating…"
            >
              Rotate secret
            </ActionButton>
            <ActionButton
              variant="danger"
              confirm={`Delete the endpoint ${webhook.data.url}? Nothing more is sent to it, retries waiting included.`}
              action={() => api.webhooks.delete(id)}
              onDone={() => navigate(href('webhooks'))}
              busyLabel="Deleting…"
            >
              Delete
            </ActionButton>
          </div>
          {rotated && <SecretOnce title="New signing secret" secret={rotated.secret} />}
        </div>
      )}
      <div class="section-head">
        <h2>Deliveries</h2>
        <div class="field">
          <label for="delivery-status">Status</label>
          <select id="delivery-status" value={isStatus(status) ? status : ''} onChange={(e) => navigate(href(['webhooks', id], { status: e.currentTarget.value }))}>
            <option value="">all</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      <DeliveryLog key={status ?? ''} webhookId={id} status={isStatus(status) ? status : undefined} />
    </section>
  );
}
