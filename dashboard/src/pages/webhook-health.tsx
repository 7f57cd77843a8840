import type { Schemas } from '../api';
import { ActionButton } from '../components/async';
import { formatTime } from '../components/format';
import { mayCall } from '../permissions';
import { useSession } from '../session-context';

// A webhook's health (issue 41): whether the service still sends to it, why not (a 410 Gone, or
// every delivery failing for WEBHOOK_DISABLE_AFTER), its last accepted delivery and since when
// every attempt has failed; and, for a disabled one, "Enable" (PATCH /v1/webhooks/{id}
// {"status":"enabled"}), offered only to keys that may call it.

type Webhook = Schemas['Webhook'];

/** `enabled` or `disabled`, in words (never colour alone). */
export function WebhookStatusBadge({ status }: { status: Webhook['status'] }) {
  return (
    <span class={`badge badge-webhook-${status}`} data-testid="webhook-status">
      {status}
    </span>
  );
}

export function WebhookHealth({ webhook, onEnabled }: { webhook: Webhook; onEnabled(updated: Webhook): void }) {
  const { api, identity } = useSession();
  const disabled = webhook.status === 'disabled';
  return (
    <div class={`card webhook-health${disabled ? ' webhook-health-disabled' : ''}`} data-testid="webhook-health">
      <p>
        <span class="muted">Status:</span> <WebhookStatusBadge status={webhook.status} />
        {disabled && <span> Nothing is sent to it until it is enabled again; what it misses meanwhile is in its delivery log as exhausted, to replay then.</span>}
      </p>
      {webhook.disabled_reason && (
        <p data-testid="webhook-disabled-reason">
          <span class="muted">Reason:</span> {webhook.disabled_reason}
        </p>
      )}
      <p class="small">
        <span class="muted">Last successful delivery:</span> <span data-testid="webhook-last-success">{formatTime(webhook.last_success_at)}</span>
        {webhook.failing_since && (
          <>
            {' · '}
            <span class="muted">Failing since:</span> <span data-testid="webhook-failing-since">{formatTime(webhook.failing_since)}</span>
          </>
        )}
      </p>
      {disabled && mayCall(identity, 'updateWebhook') && (
        <div class="row-actions">
          <ActionButton variant="primary" action={() => api.webhooks.update(webhook.id, { status: 'enabled' })} onDone={onEnabled} busyLabel="Enabling…">
            Enable
          </ActionButton>
        </div>
      )}
    </div>
  );
}
