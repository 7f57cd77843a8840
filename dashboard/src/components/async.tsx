import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeFailure } from '../api';

// Loading, failure and busy states every view shows the same way: a failure shows the API's own
// message (and its code and request id), long work shows progress.

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Runs `load` now and whenever `deps` change; `reload` runs it again. Stale answers are dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (error: unknown) => mine === generation.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, deps);
  useEffect(run, [run]);
  return { data: state.data, error: state.error, loading: state.loading, reload: run };
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  const { message, detail } = describeFailure(error);
  return (
    <div class="notice notice-error" role="alert">
      <strong>{message}</strong>
      {detail && <div class="muted small">{detail}</div>}
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <span class="spinner" role="status" aria-live="polite">
      <span class="spinner-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

/**
 * A button that runs an async action: disabled with a spinner while it runs, the API's message
 * under it if it fails. `onDone` gets the result.
 */
export function ActionButton<T>(props: {
  action: () => Promise<T>;
  onDone?: (result: T) => void;
  children: preact.ComponentChildren;
  busyLabel?: string;
  variant?: 'primary' | 'danger' | 'plain';
  confirm?: string;
  disabled?: boolean;
  type?: 'button' | 'submit';
  testId?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const click = async () => {
    if (props.confirm && !window.confirm(props.confirm)) return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await props.action();
      props.onDone?.(result);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="action">
      <button
        type={props.type ?? 'button'}
        class={`btn btn-${props.variant ?? 'plain'}`}
        disabled={busy || props.disabled}
        aria-busy={busy}
        onClick={() => void click()}
        data-testid={props.testId}
      >
        {busy ? <Spinner label={props.busyLabel ?? 'Working…'} /> : props.children}
      </button>
      <ErrorNotice error={error} />
    </span>
  );
}
