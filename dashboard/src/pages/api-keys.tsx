import './accounts.css';
import { useState } from 'preact/hooks';
import { unwrap } from '../../../clients/typescript/src/request.js';
import type { Schemas } from '../api';
import { ActionButton, ErrorNotice, Spinner } from '../components/async';
import { SecretOnce } from '../components/copy-button';
import { Pager } from '../components/pagination';
import { mayCall } from '../permissions';
import type { ViewProps } from '../router';
import { useSession } from '../session-context';
import { CreateApiKeyForm, type CreatedKey } from './api-key-create';
import { ApiKeyRow } from './api-key-row';
import { pageQuery, useListPage } from './use-list-page';

// #/keys: the organization's API keys of this environment, page by page, and creating, editing,
// rotating and revoking them. A new secret lives only in this view's state: leaving the view
// forgets it, and the list only ever shows a key's prefix.

type ApiKey = Schemas['ApiKey'];

interface Rotation {
  old: ApiKey;
  created: Schemas['ApiKeyWithSecret'];
  oldRevoked: boolean;
}

export function ApiKeys(_props: ViewProps) {
  const { api, identity } = useSession();
  const { page, cursor, lastId } = useListPage((startingAfter) => unwrap<Schemas['ApiKeyList']>(api.api.GET('/v1/api-keys', { params: { query: pageQuery(startingAfter) } })));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey>();
  const [rotation, setRotation] = useState<Rotation>();

  return (
    <section class="accounts" aria-labelledby="keys-title">
      <div class="section-head">
        <h1 id="keys-title">API keys</h1>
        {mayCall(identity, 'createApiKey') && !creating && (
          <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
            Create key
          </button>
        )}
      </div>
      <p class="muted">
        The {identity.environment} keys of {identity.organization.id}. A key never does more than its role and scopes allow, nor more than the user who created it.
      </p>
      {creating && (
        <CreateApiKeyForm
          onCancel={() => setCreating(false)}
          onCreated={(result) => {
            setCreating(false);
            setRotation(undefined);
            setCreated(result);
            page.reload();
          }}
        />
      )}
      {created && <CreatedNotice created={created} onDismiss={() => setCreated(undefined)} />}
      {rotation && <RotationNotice rotation={rotation} onChange={setRotation} onRevoked={page.reload} />}
      <ErrorNotice error={page.error} />
      {!page.data && page.loading && <Spinner />}
      {page.data && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Environment</th>
                <th scope="col">Role</th>
                <th scope="col">Scopes</th>
                <th scope="col">Spend this month</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((key) => (
                <ApiKeyRow
                  key={key.id}
                  apiKey={key}
                  onChanged={page.reload}
                  onRotated={(old, replacement) => {
                    setCreated(undefined);
                    setRotation({ old, created: replacement, oldRevoked: false });
                    page.reload();
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.data && <Pager cursor={cursor} hasMore={page.data.has_more} lastId={lastId} />}
    </section>
  );
}

function CreatedNotice({ created, onDismiss }: { created: CreatedKey; onDismiss(): void }) {
  const { identity } = useSession();
  const { key, allowlistError } = created;
  return (
    <div class="card" data-testid="key-created">
      <SecretOnce title={`Key "${key.name}" created (${key.environment}, ${key.role})`} secret={key.secret} />
      {key.environment !== identity.environment && (
        <p>
          A {key.environment} key is listed, edited and revoked when signed in with a {key.environment} key.
        </p>
      )}
      {allowlistError !== undefined && (
        <>
          <p>The key was created without its IP allowlist, which was refused: edit the key to set a valid one.</p>
          <ErrorNotice error={allowlistError} />
        </>
      )}
      <button type="button" class="btn btn-plain" onClick={onDismiss}>
        I have stored it
      </button>
    </div>
  );
}

/** The new key's secret once, then the old key's revocation when the person confirms. */
function RotationNotice({ rotation, onChange, onRevoked }: { rotation: Rotation; onChange(next: Rotation | undefined): void; onRevoked(): void }) {
  const { api, identity, signOut } = useSession();
  const { old, created } = rotation;
  const current = old.id === identity.id;
  return (
    <div class="card" data-testid="key-rotated">
      <SecretOnce title={`Replacement for "${old.name}" created (${created.prefix}…)`} secret={created.secret} />
      {rotation.oldRevoked ? (
        <p class="notice notice-success" role="status">
          The old key ({old.prefix}…) is revoked.
        </p>
      ) : (
        <>
          <p>
            The old key ({old.prefix}…) still works. Put the new secret where the old one is used, then revoke the old key.
            {current && ' You are signed in with the old key: revoking it signs you out; sign in again with the new one.'}
          </p>
          <div class="row-actions">
            <ActionButton
              variant="danger"
              confirm={`Revoke the old key "${old.name}" (${old.prefix}…)? Every request with it is refused from now on.`}
              action={() => api.apiKeys.revoke(old.id)}
              onDone={() => {
                if (current) return signOut();
                onChange({ ...rotation, oldRevoked: true });
                onRevoked();
              }}
              busyLabel="Revoking…"
            >
              Revoke the old key
            </ActionButton>
          </div>
        </>
      )}
      <button type="button" class="btn btn-plain" onClick={() => onChange(undefined)}>
        {rotation.oldRevoked ? 'Done' : 'Keep both for now'}
      </button>
    </div>
  );
}
