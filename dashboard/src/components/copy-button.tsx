import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <button type="button" class="btn btn-plain" onClick={copy} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select and copy by hand' : label}
    </button>
  );
}

/** A secret shown once: what it is, the value, a copy button and the warning. */
export function SecretOnce({ title, secret }: { title: string; secret: string }) {
  return (
    <div class="notice notice-success secret-once" role="status">
      <strong>{title}</strong>
      <p>This is the only time it is shown: store it now.</p>
      <div class="secret-row">
        <code class="secret" data-testid="secret">
          {secret}
        </code>
        <CopyButton text={secret} />
      </div>
    </div>
  );
}
