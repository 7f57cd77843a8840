import { ROLES, SCOPES, roleAllows, type Role, type Scope } from '../../../domain/access';
import type { Identity } from '../api';

// The inputs the key forms share (create and edit): roles and scopes the signed-in key may hand
// out, the budget and the IP allowlist, read the way the API reads them (api/routes/api-keys.ts).

/** The roles this key may give (no role above its own: decisions §3). */
export const grantableRoles = (identity: Identity): Role[] => ROLES.filter((role) => roleAllows(identity.role, role));

/** The scopes this key may give: a scoped key hands out only some of its own. */
export const grantableScopes = (identity: Identity): Scope[] => (identity.scopes.length ? SCOPES.filter((s) => identity.scopes.includes(s)) : [...SCOPES]);

/** The budget field's text as the API wants it: empty is "no budget". */
export const parseBudget = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** One CIDR range per line (or separated by commas or spaces); the API validates each. */
export const parseAllowlist = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

export function ScopeCheckboxes({ identity, value, onChange, idPrefix }: { identity: Identity; value: Scope[]; onChange(scopes: Scope[]): void; idPrefix: string }) {
  const scoped = identity.scopes.length > 0;
  return (
    <fieldset class="checkbox-grid">
      <legend>Scopes</legend>
      <p class="muted small span-all">
        {scoped ? 'This key is scoped: a key it creates must have some of its scopes and no others.' : 'None checked: the key may use every scope.'}
      </p>
      {grantableScopes(identity).map((scope) => (
        <label key={scope} for={`${idPrefix}-${scope}`}>
          <input
            id={`${idPrefix}-${scope}`}
            type="checkbox"
            checked={value.includes(scope)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...value, scope] : value.filter((s) => s !== scope))}
          />
          <code>{scope}</code>
        </label>
      ))}
    </fieldset>
  );
}

export function BudgetField({ id, value, onInput }: { id: string; value: string; onInput(text: string): void }) {
  return (
    <div class="field">
      <label for={id}>Monthly budget (USD)</label>
      <input id={id} type="number" min="0" step="0.01" inputMode="decimal" placeholder="No budget" value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </div>
  );
}

/** The allowlist input, or why there is none: allowlists are an Enterprise feature. */
export function AllowlistField({ identity, id, value, onInput }: { identity: Identity; id: string; value: string; onInput(text: string): void }) {
  if (!identity.organization.enterprise) {
    return <p class="muted small">IP allowlists are an Enterprise feature; ask your operator to enable Enterprise.</p>;
  }
  return (
    <div class="field">
      <label for={id}>IP allowlist</label>
      <textarea id={id} rows={3} spellcheck={false} placeholder={'203.0.113.0/24\n2001:db8::/32'} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
      <span class="muted small">One CIDR range per line; empty: any address.</span>
    </div>
  );
}
