import { useState } from 'preact/hooks';
import { ErrorNotice, Spinner } from '../components/async';

/** Paste a key once: it is checked against the API, then kept in this tab's sessionStorage only. */
export function SignIn({ signIn, notice }: { signIn(secret: string): Promise<void>; notice?: string }) {
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(secret.trim());
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <main class="centered">
      <form class="card sign-in" onSubmit={(e) => void submit(e)} autocomplete="off">
        <h1>Sign in</h1>
        <p class="muted">
          Paste an API key (<code>sk_live_…</code> or <code>sk_test_…</code>). It stays in this browser tab until you sign out or close the tab.
        </p>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" required spellcheck={false} value={secret} onInput={(e) => setSecret(e.currentTarget.value)} autoFocus />
        <button type="submit" class="btn btn-primary" disabled={busy || !secret.trim()}>
          {busy ? <Spinner label="Checking the key…" /> : 'Sign in'}
        </button>
        <ErrorNotice error={error} />
      </form>
    </main>
  );
}
