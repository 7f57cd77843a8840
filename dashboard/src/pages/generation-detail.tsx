import { useEffect, useState } from 'preact/hooks';
import { isTerminal } from '../../../domain/generation-status';
import { ApiError, type Schemas } from '../api';
import { ActionButton, ErrorNotice, Spinner } from '../components/async';
import { between, formatCredits, formatDuration, formatTime } from '../components/format';
import { MediaView } from '../components/media-view';
import { StatusBadge } from '../components/status-badge';
import { mayCall } from '../permissions';
import { href, type ViewProps } from '../router';
import { useSession } from '../session-context';
import './generations.css';

// One generation (#/generations/<id>): its outputs as media, what it cost, who served it (every
// provider attempt), when, and why it failed if it did. While it is queued or running the page asks
// again every second and stops once it is finished; a key that may cancel gets a Cancel button.

type Generation = Schemas['Generation'];

const POLL_MS = 1000;
/** After a failed refresh of a running generation: try again, less often. */
const RETRY_MS = 3000;

/** The generation, fetched now and again every second until it is finished. */
function useLiveGeneration(id: string): { generation: Generation | undefined; error: unknown; replace(g: Generation): void } {
  const { api } = useSession();
  const [generation, setGeneration] = useState<Generation>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let loaded = false;
    const tick = async () => {
      try {
        const g = await api.generations.get(id);
        if (stopped) return;
        loaded = true;
        setGeneration((current) => (current && isTerminal(current.status) && !isTerminal(g.status) ? current : g));
        setError(undefined);
        if (!isTerminal(g.status)) timer = setTimeout(() => void tick(), POLL_MS);
      } catch (err) {
        if (stopped) return;
        setError(err);
        // A generation that does not exist (or is another organization's) will not appear later.
        const gone = err instanceof ApiError && (err.status === 404 || err.status === 403);
        if (loaded && !gone) timer = setTimeout(() => void tick(), RETRY_MS);
      }
    };
    setGeneration(undefined);
    setError(undefined);
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, id]);
  return { generation, error, replace: setGeneration };
}

export function GenerationDetail({ location }: ViewProps) {
  const id = location.segments[1] ?? '';
  const { api, identity } = useSession();
  const { generation: g, error, replace } = useLiveGeneration(id);
  const [canceled, setCanceled] = useState<Generation>();

  if (!g) {
    return (
      <section class="generation">
        <p>
          <a href={href('generations')}>← Generations</a>
        </p>
        <h1 class="mono">{id}</h1>
        {error !== undefined ? <ErrorNotice error={error} /> : <Spinner label="Loading the generation…" />}
      </section>
    );
  }

  const running = !isTerminal(g.status);
  return (
    <section class="generation" data-testid="generation" data-status={g.status}>
      <p>
        <a href={href('generations')}>← Generations</a>
        {g.comparison_id && (
          <>
            {' · '}
            <a href={href(['comparisons', g.comparison_id])}>Its comparison</a>
          </>
        )}
      </p>
      <div class="generation-head">
        <h1 class="mono">{g.id}</h1>
        <StatusBadge status={g.status} />
        {running && mayCall(identity, 'cancelGeneration') && (
          <ActionButton
            variant="danger"
            busyLabel="Canceling…"
            testId="cancel"
            action={() => api.generations.cancel(g.id)}
            onDone={(result) => {
              replace(result);
              setCanceled(result);
            }}
          >
            Cancel
          </ActionButton>
        )}
      </div>
      {canceled && (
        <p class="notice notice-success" role="status" data-testid="cancel-notice">
          Canceled. {formatCredits(canceled.refunded_credits)} refunded, {formatCredits(canceled.charged_credits)} charged.
        </p>
      )}
      {running && <Progress generation={g} />}
      {/* Why it failed leads, before the (absent) output: it is what a person came to read. */}
      {g.status === 'failed' && (
        <div class="notice notice-error" role="alert" data-testid="generation-error">
          <strong>{g.error_message ?? 'The generation failed.'}</strong>
          <div class="muted small">
            {[
              g.error_code && `code ${g.error_code}`,
              g.error_source && `from the ${g.error_source}`,
              g.retryable !== undefined && (g.retryable ? 'retrying may succeed' : 'retrying will not help'),
            ]
              .filter(Boolean)
              .join(' · ')}
          </div>
        </div>
      )}
      {/* A refresh failed while it runs: say so, the page keeps trying. */}
      <ErrorNotice error={error} />
      <p class="generation-prompt">{g.prompt}</p>
      <MediaView generation={g} />
      <div class="generation-columns">
        <div class="card">
          <h2>Cost</h2>
          <dl class="facts" data-testid="cost">
            <dt>Reserved</dt>
            <dd>{formatCredits(g.reserved_credits)}</dd>
            <dt>Charged</dt>
            <dd data-testid="charged">{formatCredits(g.charged_credits)}</dd>
            <dt>Refunded</dt>
            <dd data-testid="refunded">{formatCredits(g.refunded_credits)}</dd>
            {g.cache_hit && (
              <>
                <dt>Cache</dt>
                <dd>Served from an identical earlier generation, free.</dd>
              </>
            )}
            {g.usage?.input_tokens !== undefined && (
              <>
                <dt>Tokens</dt>
                <dd>
                  {g.usage.input_tokens} in, {g.usage.output_tokens ?? '—'} out{g.usage.output_tokens_estimated ? ' (counted here)' : ''}
                </dd>
              </>
            )}
          </dl>
        </div>
        <div class="card">
          <h2>Timing</h2>
          <dl class="facts" data-testid="timing">
            <dt>Created</dt>
            <dd>
              <time dateTime={g.created_at}>{formatTime(g.created_at)}</time>
            </dd>
            <dt>Finished</dt>
            <dd>{g.finished_at ? <time dateTime={g.finished_at}>{formatTime(g.finished_at)}</time> : '—'}</dd>
            <dt>Duration</dt>
            <dd>{formatDuration(between(g.created_at, g.finished_at))}</dd>
          </dl>
        </div>
        <div class="card">
          <h2>Provenance</h2>
          <dl class="facts" data-testid="provenance">
            <dt>Model</dt>
            <dd>
              {g.model} <span class="muted">({g.modality})</span>
            </dd>
            <dt>Provider</dt>
            <dd>{g.provider ?? '—'}</dd>
            <dt>Provider model</dt>
            <dd>{g.provider_model ?? '—'}</dd>
          </dl>
        </div>
      </div>
      <h2>Attempts</h2>
      <div class="table-wrap">
        <table data-testid="attempts">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Provider</th>
              <th scope="col">Provider model</th>
              <th scope="col">Outcome</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {g.attempts.map((a, i) => (
              <tr key={i}>
                <td>{i + 1}</td>
                <td>{a.provider}</td>
                <td>{a.model}</td>
                <td>{a.outcome}</td>
                <td>{formatDuration(a.duration_ms)}</td>
                <td>{a.error_code ?? '—'}</td>
              </tr>
            ))}
            {g.attempts.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  {running ? 'No provider call has ended yet.' : 'No provider was called.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <h2>Parameters</h2>
      <div class="card">
        <pre class="params" data-testid="params">
          {JSON.stringify({ model: g.model, ...g.params }, null, 2)}
        </pre>
      </div>
    </section>
  );
}

/** While it runs: its status, how long so far (the page re-renders on every refresh), a moving bar. */
function Progress({ generation }: { generation: Generation }) {
  const elapsed = Date.now() - new Date(generation.created_at).getTime();
  return (
    <div class="card" role="status" data-testid="progress">
      <Spinner label={`${generation.status === 'queued' ? 'Queued' : 'Running'} for ${formatDuration(Math.max(0, elapsed))}, ${formatCredits(generation.reserved_credits)} held`} />
      <div class="progress-track" aria-hidden="true">
        <span />
      </div>
    </div>
  );
}
