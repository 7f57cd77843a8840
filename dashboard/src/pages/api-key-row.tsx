import { useState } from 'preact/hooks';
import { roleAllows } from '../../../domain/access';
import type { Schemas } from '../api';
import { ActionButton, ErrorNotice, Spinner } from '../components/async';
import { formatTime, formatUsd } from '../components/format';
import { useSession } from '../session-context';
import { AllowlistField, BudgetField, parseAllowlist, parseBudget } from './api-key-fields';
import { createReplacement } from './api-key-rotation';

// One key in the list: what it is and may do (environment, role, scopes, budget and this month's
// spend, allowlist), and what the signed-in key may do to it: edit, rotate, revoke. A key ranking
// above the signed-in one is shown without actions (the API would refuse them).

type ApiKey = Schemas['ApiKey'];

const COLUMNS = 7;

export function ApiKeyRow({ apiKey, onChanged, onRotated }: { apiKey: ApiKey; onChanged(): void; onRotated(old: ApiKey, created: Schemas['ApiKeyWithSecret']): void }) {
  const { api, identity, signOut } = useSession();
  const [editing, setEditing] = useState(false);
  const revoked = apiKey.revoked_at !== null;
  const current = apiKey.id === identity.id;
  const manageable = !revoked && roleAllows(identity.role, apiKey.role);
  return (
    <>
      <tr data-testid={`key-${apiKey.id}`}>
        <td>
          <strong>{apiKey.name}</strong>
          <div class="muted small">
            <code data-testid="key-prefix">{apiKey.prefix}…</code> {current && <span class="badge">this key</span>}
          </div>
        </td>
        <td>
          <span class={`badge badge-${apiKey.environment}`}>{apiKey.environment}</span>
        </td>
        <td>{apiKey.role}</td>
        <td>
          {apiKey.scopes.length ? (
            <span class="tags">
              {apiKey.scopes.map((s) => (
                <code key={s}>{s}</code>
              ))}
            </span>
          ) : (
            <span class="muted">all scopes</span>
          )}
        </td>
        <td>
          <BudgetCell apiKey={apiKey} />
        </td>
        <td>
          {revoked ? <span class="badge badge-revoked">revoked {formatTime(apiKey.revoked_at)}</span> : <span class="small">{formatTime(apiKey.created_at)}</span>}
          {apiKey.ip_allowlist.length > 0 && <div class="muted small break">from {apiKey.ip_allowlist.join(', ')}</div>}
        </td>
        <td>
          {manageable && (
            <div class="row-actions">
              <button type="button" class="btn btn-plain" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Edit
              </button>
              <ActionButton action={() => createReplacement(api, apiKey)} onDone={(created) => onRotated(apiKey, created)} busyLabel="Rotating…">
                Rotate
              </ActionButton>
              <ActionButton
                variant="danger"
                confirm={`Revoke the key "${apiKey.name}" (${apiKey.prefix}…)? Every request with it is refused from now on.${current ? ' You are signed in with it and will be signed out.' : ''}`}
                action={() => api.apiKeys.revoke(apiKey.id)}
                onDone={() => (current ? signOut() : onChanged())}
                busyLabel="Revoking…"
              >
                Revoke
              </ActionButton>
            </div>
          )}
        </td>
      </tr>
      {editing && (
        <tr class="inline-panel">
          <td colSpan={COLUMNS}>
            <EditApiKey
              apiKey={apiKey}
              onDone={() => {
                setEditing(false);
                onChanged();
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}

function BudgetCell({ apiKey }: { apiKey: ApiKey }) {
  const budget = apiKey.monthly_budget_usd;
  const spent = apiKey.spent_usd_this_month;
  if (budget === null) return <span data-testid="key-spend">{formatUsd(spent)} this month</span>;
  const share = budget > 0 ? Math.min(1, spent / budget) : 1;
  return (
    <span data-testid="key-spend">
      {formatUsd(spent)} of {formatUsd(budget)}
      <span class={`budget-bar ${spent >= budget ? 'over' : ''}`} role="img" aria-label={`${Math.round(share * 100)}% of the monthly budget spent`}>
        <span style={{ width: `${share * 100}%` }} />
      </span>
    </span>
  );
}

/** PATCH /v1/api-keys/<id>: name, budget, allowlist; only what changed is sent. */
function EditApiKey({ apiKey, onDone }: { apiKey: ApiKey; onDone(): void }) {
  const { api, identity } = useSession();
  const [name, setName] = useState(apiKey.name);
  const [budget, setBudget] = useState(apiKey.monthly_budget_usd === null ? '' : String(apiKey.monthly_budget_usd));
  const [allowlist, setAllowlist] = useState(apiKey.ip_allowlist.join('\n'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const id = `edit-${apiKey.id}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    const budgetUsd = parseBudget(budget);
    const ranges = parseAllowlist(allowlist);
    const changes = {
      ...(name.trim() !== apiKey.name && { name: name.trim() }),
      ...(budgetUsd !== apiKey.monthly_budget_usd && { monthly_budget_usd: budgetUsd }),
      ...(ranges.join('\n') !== apiKey.ip_allowlist.join('\n') && { ipAllowlist: ranges }),
    };
    if (!Object.keys(changes).length) return onDone();
    setBusy(true);
    setError(undefined);
    try {
      await api.apiKeys.update(apiKey.id, changes);
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="form" onSubmit={(e) => void submit(e)} aria-label={`Edit ${apiKey.name}`}>
      <div class="form-row">
        <div class="field">
          <label for={`${id}-name`}>Name</label>
          <input id={`${id}-name`} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <BudgetField id={`${id}-budget`} value={budget} onInput={setBudget} />
      </div>
      {identity.organization.enterprise || apiKey.ip_allowlist.length === 0 ? (
        <AllowlistField identity={identity} id={`${id}-allowlist`} value={allowlist} onInput={setAllowlist} />
      ) : (
        // Clearing an allowlist is allowed without Enterprise; setting one is not.
        <button type="button" class="btn btn-plain" onClick={() => setAllowlist('')}>
          Remove the IP allowlist
        </button>
      )}
      <div class="form-row">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? <Spinner label="Saving…" /> : 'Save'}
        </button>
        <button type="button" class="btn btn-plain" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
