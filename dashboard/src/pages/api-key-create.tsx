import { useState } from 'preact/hooks';
import type { Role, Scope } from '../../../domain/access';
import type { Schemas } from '../api';
import { ErrorNotice, Spinner } from '../components/async';
import { useSession } from '../session-context';
import { AllowlistField, BudgetField, ScopeCheckboxes, grantableRoles, parseAllowlist, parseBudget } from './api-key-fields';

// The "Create key" form: name, environment, role, scopes, monthly budget and, for Enterprise
// organizations, an IP allowlist. POST /v1/api-keys takes no allowlist, so it is set with a PATCH
// right after; if that is refused the key exists without one and the caller says so.

export interface CreatedKey {
  key: Schemas['ApiKeyWithSecret'];
  /** Why the allowlist could not be set (the key was created without it). */
  allowlistError?: unknown;
}

export function CreateApiKeyForm({ onCreated, onCancel }: { onCreated(created: CreatedKey): void; onCancel(): void }) {
  const { api, identity } = useSession();
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'test'>(identity.environment);
  const [role, setRole] = useState<Role | ''>('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [budget, setBudget] = useState('');
  const [allowlist, setAllowlist] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  // A key lists and changes keys of its own environment only, so it can set an allowlist on those only.
  const sameEnvironment = environment === identity.environment;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const budgetUsd = parseBudget(budget);
      const key = await api.apiKeys.create({ name: name.trim(), environment, scopes, ...(role && { role }), ...(budgetUsd !== null && { monthly_budget_usd: budgetUsd }) });
      const ranges = sameEnvironment ? parseAllowlist(allowlist) : [];
      let allowlistError: unknown;
      if (ranges.length) await api.apiKeys.update(key.id, { ipAllowlist: ranges }).catch((err: unknown) => (allowlistError = err));
      onCreated({ key, allowlistError });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form" onSubmit={(e) => void submit(e)} aria-labelledby="create-key-title">
      <h2 id="create-key-title">New API key</h2>
      <div class="field">
        <label for="key-name">Name</label>
        <input id="key-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="form-row">
        <div class="field">
          <label for="key-environment">Environment</label>
          <select id="key-environment" value={environment} onChange={(e) => setEnvironment(e.currentTarget.value as 'live' | 'test')}>
            {identity.environment === 'live' && <option value="live">live</option>}
            <option value="test">test (simulator, sandbox credits)</option>
          </select>
        </div>
        <div class="field">
          <label for="key-role">Role</label>
          <select id="key-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role | '')}>
            <option value="">Same as this key ({identity.role})</option>
            {grantableRoles(identity).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <BudgetField id="key-budget" value={budget} onInput={setBudget} />
      </div>
      <ScopeCheckboxes identity={identity} value={scopes} onChange={setScopes} idPrefix="key-scope" />
      {sameEnvironment ? (
        <AllowlistField identity={identity} id="key-allowlist" value={allowlist} onInput={setAllowlist} />
      ) : (
        <p class="muted small">
          A {environment} key is listed and edited when signed in with a {environment} key; set its IP allowlist there.
        </p>
      )}
      <div class="form-row">
        <button type="submit" class="btn btn-primary" disabled={busy || !name.trim()}>
          {busy ? <Spinner label="Creating…" /> : 'Create key'}
        </button>
        <button type="button" class="btn btn-plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
