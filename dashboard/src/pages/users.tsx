import './accounts.css';
import { useState } from 'preact/hooks';
import { roleAllows, type Role } from '../../../domain/access';
import { unwrap } from '../../../clients/typescript/src/request.js';
import type { Schemas } from '../api';
import { ActionButton, ErrorNotice, Spinner } from '../components/async';
import { formatTime } from '../components/format';
import { Pager } from '../components/pagination';
import { mayCall } from '../permissions';
import type { ViewProps } from '../router';
import { useSession } from '../session-context';
import { grantableRoles } from './api-key-fields';
import { pageQuery, useListPage } from './use-list-page';

// #/users: the organization's people and their roles (owners and admins). Inviting, changing a
// role and deactivating follow api/routes/users.ts: only live keys change users (a change reaches
// live keys too), nobody grants a role above their own or changes someone ranking above them, and
// the last owner stays. What the API refuses anyway is shown with its own message.

type User = Schemas['User'];

export function Users(_props: ViewProps) {
  const { api, identity } = useSession();
  const { page, cursor, lastId } = useListPage((startingAfter) => unwrap<Schemas['UserList']>(api.api.GET('/v1/users', { params: { query: pageQuery(startingAfter) } })));
  const [inviting, setInviting] = useState(false);
  const [invited, setInvited] = useState<User>();
  const live = identity.environment === 'live';

  return (
    <section class="accounts" aria-labelledby="users-title">
      <div class="section-head">
        <h1 id="users-title">Users</h1>
        {live && mayCall(identity, 'createUser') && !inviting && (
          <button type="button" class="btn btn-primary" onClick={() => setInviting(true)}>
            Invite user
          </button>
        )}
      </div>
      <p class="muted">
        A key never does more than the role of the user who created it: demoting or deactivating a user changes what their keys may do at once.
        {!live && ' Users belong to the whole organization, live keys included: sign in with a live key to change them.'}
      </p>
      {inviting && (
        <InviteForm
          onCancel={() => setInviting(false)}
          onInvited={(user) => {
            setInviting(false);
            setInvited(user);
            page.reload();
          }}
        />
      )}
      {invited && (
        <p class="notice notice-success" role="status">
          {invited.name} ({invited.email}) was added as {invited.role}. They need an API key, made by someone with a key, to use the service.
        </p>
      )}
      <ErrorNotice error={page.error} />
      {!page.data && page.loading && <Spinner />}
      {page.data && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((user) => (
                <UserRow key={user.id} user={user} onChanged={page.reload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.data && <Pager cursor={cursor} hasMore={page.data.has_more} lastId={lastId} />}
    </section>
  );
}

function InviteForm({ onInvited, onCancel }: { onInvited(user: User): void; onCancel(): void }) {
  const { api, identity } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onInvited(await unwrap<User>(api.api.POST('/v1/users', { body: { email: email.trim(), role, ...(name.trim() && { name: name.trim() }) } })));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card form" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a user</h2>
      <div class="form-row">
        <div class="field">
          <label for="user-name">Name</label>
          <input id="user-name" maxLength={200} placeholder="Defaults to the email" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="user-email">Email</label>
          <input id="user-email" type="email" required maxLength={254} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="user-role">Role</label>
          <select id="user-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {grantableRoles(identity).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div class="form-row">
        <button type="submit" class="btn btn-primary" disabled={busy || !email.trim()}>
          {busy ? <Spinner label="Inviting…" /> : 'Invite'}
        </button>
        <button type="button" class="btn btn-plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}

function UserRow({ user, onChanged }: { user: User; onChanged(): void }) {
  const { api, identity } = useSession();
  const [role, setRole] = useState<Role>(user.role);
  const deactivated = user.deactivated_at !== null;
  // The API's rules, so no button is offered that it must refuse (it still checks: the last owner, say).
  const manageable = identity.environment === 'live' && !deactivated && mayCall(identity, 'updateUser') && roleAllows(identity.role, user.role);
  const path = { params: { path: { id: user.id } } };
  return (
    <tr data-testid={`user-${user.id}`}>
      <td>
        <strong>{user.name}</strong>
        {user.email && user.email !== user.name && <div class="muted small break">{user.email}</div>}
      </td>
      <td>
        {manageable ? (
          <>
            <label class="sr-only" for={`role-${user.id}`}>
              Role of {user.name}
            </label>
            <select id={`role-${user.id}`} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {grantableRoles(identity).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </>
        ) : (
          <span data-testid="user-role">{user.role}</span>
        )}
      </td>
      <td>{deactivated ? <span class="badge badge-deactivated">deactivated {formatTime(user.deactivated_at)}</span> : <span class="small">{formatTime(user.created_at)}</span>}</td>
      <td>
        {manageable && (
          <div class="row-actions">
            <ActionButton
              variant="primary"
              disabled={role === user.role}
              action={() => unwrap<User>(api.api.PATCH('/v1/users/{id}', { ...path, body: { role } }))}
              onDone={onChanged}
              busyLabel="Saving…"
            >
              Change role
            </ActionButton>
            <ActionButton
              variant="danger"
              confirm={`Deactivate ${user.name}? Their keys stop working at once; they can be added again later.`}
              action={() => unwrap<User>(api.api.DELETE('/v1/users/{id}', path))}
              onDone={onChanged}
              busyLabel="Deactivating…"
            >
              Deactivate
            </ActionButton>
          </div>
        )}
      </td>
    </tr>
  );
}
