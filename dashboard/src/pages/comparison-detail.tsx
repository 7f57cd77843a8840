import { useEffect, useRef, useState } from 'preact/hooks';
import { isComparisonFinished } from '../../../domain/comparison-status';
import { isTerminal } from '../../../domain/generation-status';
import type { Schemas } from '../api';
import { ActionButton, ErrorNotice, Spinner } from '../components/async';
import { between, formatCredits, formatDuration, formatTime } from '../components/format';
import { MediaView } from '../components/media-view';
import { mayCall } from '../permissions';
import { href, type ViewProps } from '../router';
import { useSession } from '../session-context';
import './comparisons.css';

// One comparison (#/comparisons/<id>): followed every second while any model is still working,
// then every model's output side by side (a column each on a wide screen, stacked on a phone) with
// what it cost and how long it took, read from each model's own generation.

type Comparison = Schemas['Comparison'];
type Generation = Schemas['Generation'];

const POLL_MS = 1000;

export function ComparisonDetail({ location }: ViewProps) {
  const id = location.segments[1]!;
  const { api, identity } = useSession();
  const [comparison, setComparison] = useState<Comparison>();
  const [error, setError] = useState<unknown>();
  const [generations, setGenerations] = useState<Record<string, Generation>>({});
  const fetched = useRef(new Set<string>());
  const [following, setFollowing] = useState(0);

  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const current = await api.comparisons.get(id);
        if (!alive) return;
        setComparison(current);
        setError(undefined);
        // A finished model's full generation has its timings, attempts and outputs: fetched once.
        const finished = current.generations.filter((g) => isTerminal(g.status) && !fetched.current.has(g.id));
        finished.forEach((g) => fetched.current.add(g.id));
        const full = await Promise.all(finished.map((g) => api.generations.get(g.id)));
        if (!alive) return;
        if (full.length) setGenerations((known) => ({ ...known, ...Object.fromEntries(full.map((g) => [g.id, g])) }));
        if (!isComparisonFinished(current.status)) timer = setTimeout(() => void tick(), POLL_MS);
      } catch (err) {
        if (!alive) return;
        setError(err);
        timer = setTimeout(() => void tick(), POLL_MS * 3);
      }
    };
    void tick();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [api, id, following]);

  if (!comparison) {
    return (
      <section>
        <h1>Comparison</h1>
        {error ? <ErrorNotice error={error} /> : <Spinner />}
      </section>
    );
  }
  const running = !isComparisonFinished(comparison.status);
  const done = comparison.generations.filter((g) => isTerminal(g.status)).length;

  return (
    <section data-testid="comparison" data-status={comparison.status}>
      <p class="small">
        <a href={href('comparisons')}>← Comparisons</a>
      </p>
      <div class="toolbar">
        <h1 class="grow mono">{comparison.id}</h1>
        {running && mayCall(identity, 'cancelComparison') && (
          <ActionButton variant="danger" busyLabel="Cancelling…" action={() => api.comparisons.cancel(comparison.id)} onDone={() => setFollowing((n) => n + 1)}>
            Cancel the comparison
          </ActionButton>
        )}
      </div>
      <ErrorNotice error={error} />
      <p class="cmp-prompt-full">“{comparison.prompt}”</p>
      <dl class="cmp-facts">
        <dt>Status</dt>
        <dd class={`status-${comparison.status}`} data-testid="cmp-status">
          {comparison.status}
          {running && (
            <>
              {' '}
              <Spinner label={`${done} of ${comparison.generations.length} models done`} />
            </>
          )}
        </dd>
        <dt>Modality</dt>
        <dd>{comparison.modality}</dd>
        <dt>Reserved</dt>
        <dd>{formatCredits(comparison.reserved_credits)}</dd>
        <dt>Charged</dt>
        <dd data-testid="cmp-charged">{formatCredits(comparison.charged_credits)}</dd>
        <dt>Refunded</dt>
        <dd>{formatCredits(comparison.refunded_credits)}</dd>
        <dt>Created</dt>
        <dd>{formatTime(comparison.created_at)}</dd>
      </dl>
      <div class="cmp-grid" data-testid="cmp-grid">
        {comparison.generations.map((child) => (
          <ModelColumn key={child.id} child={child} generation={generations[child.id]} modality={comparison.modality} />
        ))}
      </div>
    </section>
  );
}

function ModelColumn({ child, generation, modality }: { child: Comparison['generations'][number]; generation: Generation | undefined; modality: Comparison['modality'] }) {
  const elapsed = generation && between(generation.created_at, generation.finished_at);
  const providerMs = generation?.attempts.reduce((sum, a) => sum + a.duration_ms, 0);
  return (
    <figure class="card cmp-column" data-testid="cmp-column" data-model={child.model} data-generation-id={child.id}>
      <figcaption class="cmp-caption">
        <strong data-testid="cmp-model">{child.model}</strong> <span class={`badge status-${child.status}`}>{child.status}</span>
      </figcaption>
      {generation ? (
        <MediaView generation={generation} />
      ) : (
        <div class={`cmp-pending cmp-pending-${modality}`}>
          <Spinner label={child.status === 'queued' ? 'Queued…' : 'Running…'} />
        </div>
      )}
      {child.error_message && (
        <p class="notice notice-error" role="alert">
          {child.error_message}
        </p>
      )}
      <dl class="cmp-facts">
        <dt>Cost</dt>
        <dd data-testid="cmp-cost" data-credits={generation?.charged_credits}>
          {formatCredits(generation ? generation.charged_credits : undefined)}
        </dd>
        <dt>Time</dt>
        <dd data-testid="cmp-time" data-ms={elapsed}>
          {formatDuration(elapsed)}
          {providerMs !== undefined && providerMs > 0 && <span class="muted small"> (provider {formatDuration(providerMs)})</span>}
        </dd>
      </dl>
      <a href={href(['generations', child.id])} class="small">
        Open {child.id}
      </a>
    </figure>
  );
}
