import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { createApi, fetchIdentity, type Api, type Identity } from './api';
import { forgetKey, readStoredKey, storeKey } from './session';

// The signed-in key for every view: its client and who it is. Signing in checks the key with
// GET /v1/api-keys/current before keeping it, so a mistyped key is never stored.

export interface Session {
  api: Api;
  identity: Identity;
  signOut(): void;
}

type State = { kind: 'restoring' } | { kind: 'signed-out'; notice?: string } | { kind: 'signed-in'; session: Session };

const SessionContext = createContext<Session | undefined>(undefined);

/** The session of the signed-in views (they render only inside one). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in view');
  return session;
}

export function useSessionState(): { state: State; signIn(secret: string): Promise<void>; provider(children: ComponentChildren): ComponentChildren } {
  const [state, setState] = useState<State>(() => (readStoredKey() ? { kind: 'restoring' } : { kind: 'signed-out' }));

  const signOut = useCallback((notice?: string) => {
    forgetKey();
    setState({ kind: 'signed-out', notice });
  }, []);

  const begin = useCallback(
    async (secret: string) => {
      const api = createApi(secret);
      const identity = await fetchIdentity(api);
      storeKey(secret);
      setState({ kind: 'signed-in', session: { api, identity, signOut: () => signOut() } });
    },
    [signOut],
  );

  useEffect(() => {
    const stored = readStoredKey();
    if (state.kind !== 'restoring' || !stored) return;
    // A key revoked or expired since it was stored signs the person out, saying why.
    begin(stored).catch(() => signOut('Your key no longer works. Sign in again.'));
  }, []);

  const session = state.kind === 'signed-in' ? state.session : undefined;
  return useMemo(
    () => ({ state, signIn: begin, provider: (children: ComponentChildren) => <SessionContext.Provider value={session}>{children}</SessionContext.Provider> }),
    [state, begin, session],
  );
}
